/// From all-day events to days off: expansion over a window, and a table the
/// engine can ask per day without expanding again.

/// One day one event covers.
public struct ICalendarOccurrence: Hashable, Sendable {
  /// The day covered.
  public var date: LocalDate
  /// The event's SUMMARY.
  public var summary: String
  /// The event's index in `ICalendarFile.events` (file order).
  public var event: Int
}

extension ICalendarEvent {
  /// The instance starts whose days reach into `first...last`, ascending.
  /// DTSTART always is an instance (RFC 5545), RDATEs add more, EXDATEs and
  /// overrides take some away.
  public func starts(coveringFrom first: LocalDate, through last: LocalDate) -> [LocalDate] {
    let earliest = first.adding(days: -(length - 1))
    var starts = rule?.starts(from: start, earliest: earliest, through: last) ?? []
    for extra in [start] + extraStarts where extra >= earliest && extra <= last {
      starts.append(extra)
    }
    return Set(starts).subtracting(excludedStarts).sorted()
  }
}

extension ICalendarFile {
  /// Every (day, event) pair in `first...last`, by date, then file order.
  public func occurrences(from first: LocalDate, through last: LocalDate) -> [ICalendarOccurrence] {
    guard first <= last else { return [] }
    let firstDay = first.daysSinceEpoch
    let lastDay = last.daysSinceEpoch
    var result: [ICalendarOccurrence] = []
    for (index, event) in events.enumerated() {
      // Instances of one event overlap when it is longer than its period (a damaged
      // DURATION:P999999W on a weekly rule): each day is added once, so the work stays
      // linear in the window, not instances times length.
      var covered = firstDay - 1
      for start in event.starts(coveringFrom: first, through: last) {
        let from = max(start.daysSinceEpoch, covered + 1)
        let to = min(start.daysSinceEpoch + event.length - 1, lastDay)
        guard from <= to else { continue }
        covered = to
        for day in from...to {
          result.append(
            ICalendarOccurrence(
              date: LocalDate(daysSinceEpoch: day), summary: event.summary, event: index))
        }
      }
    }
    result.sort { ($0.date, $0.event) < ($1.date, $1.event) }
    return result
  }

  /// The days off in `first...last`, each with its reason: the SUMMARY, or
  /// when several events cover the day their distinct summaries in file order
  /// joined by ", " (`Christmas Day, Winter break`).
  public func daysOff(from first: LocalDate, through last: LocalDate) -> [LocalDate: String] {
    var names: [LocalDate: [String]] = [:]
    for occurrence in occurrences(from: first, through: last) {
      if !names[occurrence.date, default: []].contains(occurrence.summary) {
        names[occurrence.date, default: []].append(occurrence.summary)
      }
    }
    return names.mapValues { $0.joined(separator: ", ") }
  }
}

/// The days off of one or more calendar files, precomputed over a window for
/// the engine's per-day question. A day outside the window is expanded when
/// asked (slower, never wrong): a query reaching past the window, such as
/// `next --from` over years, still sees every day off. Rebuild the table when
/// the files change or today nears the window's end (`covers`).
public struct ICalendarDaysOff: Sendable {
  /// The first and last day the table holds precomputed.
  public let window: ClosedRange<LocalDate>
  private let reasons: [Int: String]
  private let files: [ICalendarFile]

  /// Expands `files` (in order; reasons of several files join like those of
  /// several events) over `first...last`.
  public init(_ files: [ICalendarFile], from first: LocalDate, through last: LocalDate) {
    let last = max(first, last)
    window = first...last
    self.files = files
    reasons = Self.expand(files, from: first, through: last)
  }

  private static func expand(
    _ files: [ICalendarFile], from first: LocalDate, through last: LocalDate
  ) -> [Int: String] {
    var names: [Int: [String]] = [:]
    for file in files {
      for (date, reason) in file.daysOff(from: first, through: last) {
        let day = date.daysSinceEpoch
        if !(names[day]?.contains(reason) ?? false) { names[day, default: []].append(reason) }
      }
    }
    return names.mapValues { $0.joined(separator: ", ") }
  }

  /// Whether `date` is inside the precomputed window.
  public func covers(_ date: LocalDate) -> Bool { window.contains(date) }

  /// The reason `date` is a day off, or nil when it is not. Outside the window
  /// the files are expanded for that one day.
  public func reason(on date: LocalDate) -> String? {
    guard covers(date) else {
      return Self.expand(files, from: date, through: date)[date.daysSinceEpoch]
    }
    return reasons[date.daysSinceEpoch]
  }

  /// How many days of the window are days off.
  public var count: Int { reasons.count }
}
