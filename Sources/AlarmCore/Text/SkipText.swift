/// How `next` and `list` say why occurrences are skipped, in text and JSON.

extension AlarmText {
  /// One line per run of skipped occurrences with the same reason, earliest first:
  /// `skipped: Christmas (2027-12-25)`, `skipped: vacation 2027-07-19..2027-07-30`,
  /// `skipped: 2027-12-24`, `skipped once: 2027-03-29`.
  /// With `cut` (the list stopped at its limit), a last line says more are skipped.
  public func skippedLines(_ skipped: [SkippedOccurrence], cut: Bool = false) -> [String] {
    var runs: [(reason: SkipReason, first: LocalDate, last: LocalDate)] = []
    for s in skipped {
      if let run = runs.last, run.reason == s.reason {
        runs[runs.count - 1].last = s.date
      } else {
        runs.append((s.reason, s.date, s.date))
      }
    }
    let more = zh ? "……還有更多略過的日子" : "... and more skipped occurrences"
    return runs.map { run in
      let dates = run.first == run.last ? "\(run.first)" : "\(run.first)..\(run.last)"
      switch run.reason {
      case .date: return zh ? "略過：\(dates)" : "skipped: \(dates)"
      case .range(let range): return zh ? "略過：休假 \(range)" : "skipped: vacation \(range)"
      case .calendar(let summary):
        let name = Self.printable(summary)
        return zh ? "略過：\(name)（\(dates)）" : "skipped: \(name) (\(dates))"
      case .once: return zh ? "略過一次：\(dates)" : "skipped once: \(dates)"
      }
    } + (cut ? [more] : [])
  }

  /// Said when every occurrence of an alarm up to `until` is skipped: a calendar or
  /// range covering every day would otherwise keep it quiet unnoticed.
  public func skippedUntil(label: String, until: LocalDate) -> String {
    zh
      ? "警告：「\(label)」在 \(until) 之前都被略過，不會響"
      : "warning: '\(label)' will not ring before \(until): every occurrence is skipped"
  }

  /// A calendar's SUMMARY made safe for a terminal: it comes from a file, unlike a
  /// label it was never checked, so control and bidi characters become U+FFFD (line
  /// breaks and tabs a space) and it is cut after 200 characters.
  static func printable(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: out.append(" ")
      case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
      default: out.append(scalar)
      }
    }
    let shown = String(out)
    return shown.count > Alarm.maxLabelCharacters
      ? String(shown.prefix(Alarm.maxLabelCharacters)) + "…" : shown
  }
}

extension SkippedOccurrence {
  /// `{"date": "2027-12-25", "kind": "calendar", "reason": "Christmas"}`; kind is
  /// `date`, `range` (reason `vacation 2027-07-19..2027-07-30`), `calendar` (the
  /// SUMMARY) or `once` (`alarmclock skip`).
  public var json: JSONValue {
    let (kind, reason): (String, String) =
      switch self.reason {
      case .date: ("date", date.description)
      case .range(let range): ("range", "vacation \(range)")
      case .calendar(let summary): ("calendar", summary)
      case .once: ("once", "skipped once")
      }
    return .object([
      "date": .string(date.description), "kind": .string(kind), "reason": .string(reason),
    ])
  }
}
