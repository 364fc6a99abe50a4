import TOML

/// A key of an `[[alarm]]` table that the config editor writes, in the order a new
/// alarm's keys are written.
public enum AlarmKey: String, CaseIterable, Hashable, Sendable, Comparable {
  case id, time, days, date, label, sound
  case fallbackSound = "fallback_sound"
  case soundOrder = "sound_order"
  case volume, ramp, snooze
  case maxSnoozes = "max_snoozes"
  case ringFor = "ring_for"
  case escalateAfter = "escalate_after"
  case escalateVolume = "escalate_volume"
  case escalateSound = "escalate_sound"
  case announce
  case announceEvery = "announce_every"
  case skip
  case skipCalendars = "skip_calendars"
  case enabled

  public static func < (a: AlarmKey, b: AlarmKey) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// A value the config editor writes into an `[[alarm]]` table.
public enum AlarmValue: Hashable, Sendable {
  case string(String)
  case integer(Int)
  case boolean(Bool)
  /// Written as a TOML local date (`2027-03-28`).
  case date(LocalDate)
  /// Written as a string (`"06:45"`), or as a TOML local time when the file already
  /// writes that alarm's time so (see `rendered(like:)`).
  case time(LocalTime)
  case strings([String])
  /// A `skip` list: days bare, ranges as `{ from = ..., to = ... }`.
  case skips([SkipEntry])

  /// The value as TOML text: strings escaped, dates bare, lists as `[a, b]`.
  public var toml: String {
    switch self {
    case .string(let s): return TOMLFormat.quoted(s)
    case .integer(let n): return String(n)
    case .boolean(let b): return b ? "true" : "false"
    case .date(let d): return d.description
    case .time(let t): return TOMLFormat.quoted(t.description)
    case .strings(let list): return "[" + list.map(TOMLFormat.quoted).joined(separator: ", ") + "]"
    case .skips(let list): return "[" + list.map(\.toml).joined(separator: ", ") + "]"
    }
  }

  /// The value as TOML text in the style of the value it replaces: a time stays a TOML
  /// local time and a date stays a string when the file wrote them so.
  func rendered(like old: TOMLValue?) -> String {
    switch (self, old) {
    case (.time(let t), .localTime?):
      return TOMLFormat.time(TOMLLocalTime(hour: t.hour, minute: t.minute, second: t.second))
    case (.date(let d), .string?):
      return TOMLFormat.quoted(d.description)
    default:
      return toml
    }
  }
}

/// What to change in one alarm (or what a new alarm holds): keys to write, keys to remove
/// (so they inherit `[defaults]` again) and `skip` entries to add to those already listed.
public struct AlarmChanges: Hashable, Sendable {
  public var values: [AlarmKey: AlarmValue]
  public var unset: Set<AlarmKey>
  /// Added to the alarm's `skip` list (entries already listed are not repeated).
  public var addSkips: [SkipEntry]

  public init(
    values: [AlarmKey: AlarmValue] = [:], unset: Set<AlarmKey> = [], addSkips: [SkipEntry] = []
  ) {
    self.values = values
    self.unset = unset
    self.addSkips = addSkips
  }

  public var isEmpty: Bool { values.isEmpty && unset.isEmpty && addSkips.isEmpty }

  /// Whether the change touches what a derived id is made of.
  var changesDerivedID: Bool {
    [AlarmKey.time, .label].contains { values[$0] != nil || unset.contains($0) }
  }
}

/// Turns command-line text into alarm values, with messages that name the option.
public enum AlarmValueText {
  /// `HH:MM` or `HH:MM:SS`.
  public static func time(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    guard let t = AlarmDecoder.parseTime(text) else {
      return .failure(
        AlarmValueError("a time like 06:45 or 06:45:30, not \(quoted(text))"))
    }
    return .success(.time(t))
  }

  /// `daily`, `weekdays`, `weekends`, `never`, one day, or days separated by commas
  /// or blanks (`mon,wed`); day names as in the config (`mon`, `monday`, `Mon`).
  public static func days(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    let words = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    let expectation = "daily, weekdays, weekends, never or days like mon,wed"
    if words.count == 1, ["daily", "weekdays", "weekends", "never"].contains(words[0]) {
      return .success(.string(words[0]))
    }
    guard !words.isEmpty else { return .failure(AlarmValueError("\(expectation), not ''")) }
    var days: [Weekday] = []
    for word in words {
      guard let day = Weekday(key: word.lowercased()) else {
        var message = "\(expectation), not \(quoted(word))"
        let names = ["daily", "weekdays", "weekends", "never"] + Weekday.allCases.map(\.key)
        if let guess = Suggestion.closest(to: word, in: names) {
          message += "; did you mean '\(guess)'?"
        }
        return .failure(AlarmValueError(message))
      }
      if !days.contains(day) { days.append(day) }
    }
    if days.count == 1 { return .success(.string(days[0].key)) }
    return .success(.strings(days.sorted().map(\.key)))
  }

  /// `YYYY-MM-DD`, a day that exists.
  public static func date(_ text: String) -> Result<LocalDate, AlarmValueError> {
    guard let d = LocalDate(iso: text) else {
      return .failure(
        AlarmValueError("a date like 2027-03-28 that exists, not \(quoted(text))"))
    }
    return .success(d)
  }

  /// `shuffle` or `rotate` (`sound_order`).
  public static func soundOrder(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    guard let order = SoundOrder(rawValue: text) else {
      var message = "shuffle or rotate, not \(quoted(text))"
      let names = SoundOrder.allCases.map(\.rawValue)
      if let guess = Suggestion.closest(to: text, in: names) ?? SoundOrder.synonyms[text] {
        message += "; did you mean '\(guess)'?"
      }
      return .failure(AlarmValueError(message))
    }
    return .success(.string(order.rawValue))
  }

  /// `escalate_after`: a duration (`5m`), or `off` (written `false`: no escalation, also
  /// when `[defaults]` has one).
  public static func escalateAfter(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    if text == "off" { return .success(.boolean(false)) }
    switch duration(text, for: .escalateAfter) {
    case .success(let v): return .success(v)
    case .failure(let e): return .failure(AlarmValueError(e.expectation + " (or off)"))
    }
  }

  /// A whole number from 0 to 1000 (`max_snoozes`).
  public static func maxSnoozes(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    let range = DefaultsDecoder.maxSnoozesRange
    guard let n = Int64(text), range.contains(n) else {
      return .failure(
        AlarmValueError(
          "a whole number from \(range.lowerBound) to \(range.upperBound), not \(quoted(text))"))
    }
    return .success(.integer(Int(n)))
  }

  /// A whole number from 0 to 100.
  public static func volume(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    guard let n = Int(text), (0...100).contains(n) else {
      return .failure(
        AlarmValueError("a whole number from 0 to 100, not \(quoted(text))"))
    }
    return .success(.integer(n))
  }

  /// A duration for `key` (`ramp`, `snooze`, `ring_for`) within the config's range,
  /// kept as written (`9m` stays `"9m"`).
  public static func duration(_ text: String, for key: AlarmKey) -> Result<
    AlarmValue, AlarmValueError
  > {
    let range: ClosedRange<Duration>
    switch key {
    case .ramp: range = DefaultsDecoder.rampRange
    case .snooze: range = DefaultsDecoder.snoozeRange
    case .escalateAfter: range = EscalationDecoder.afterRange
    case .announceEvery: range = DefaultsDecoder.announceEveryRange
    default: range = DefaultsDecoder.ringForRange
    }
    let span =
      "\(DurationText.format(range.lowerBound)) to \(DurationText.format(range.upperBound))"
    guard let d = DurationText.parse(text) else {
      return .failure(
        AlarmValueError(
          "a duration like 30s, 9m or 1h30m (\(span)), not \(quoted(text))"))
    }
    guard range.contains(d) else {
      return .failure(AlarmValueError("a duration from \(span), not \(quoted(text))"))
    }
    if key != .ramp, d != .seconds(d.components.seconds) {
      return .failure(AlarmValueError("whole seconds, not \(quoted(text))"))
    }
    return .success(.string(text))
  }

  /// An id that may be written in the file.
  public static func id(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    guard AlarmID.isValid(text) else {
      return .failure(
        AlarmValueError(
          "lower-case letters, digits, '-' and '_', starting with a letter or digit "
            + "(at most \(AlarmID.maxLength) characters), not \(quoted(text))"))
    }
    return .success(.string(text))
  }

  /// A label the config accepts (`AlarmDecoder.labelProblem`).
  public static func label(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    if let problem = AlarmDecoder.labelProblem(text) {
      return .failure(
        AlarmValueError(
          "one line of at most \(Alarm.maxLabelCharacters) characters without control "
            + "characters or bidi controls; this label \(problem)"))
    }
    return .success(.string(text))
  }
}

/// Why a command-line value was not accepted: what was expected instead.
public struct AlarmValueError: Error, Hashable, Sendable, CustomStringConvertible {
  /// "a time like 06:45 or 06:45:30, not '6:45'".
  public var expectation: String
  public init(_ expectation: String) { self.expectation = expectation }
  public var description: String { expectation }
}
