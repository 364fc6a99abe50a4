/// Why an occurrence does not ring, and the calendar days off the schedule asks about.

/// Why one occurrence of an alarm is skipped.
public enum SkipReason: Hashable, Sendable {
  /// The date is listed in `skip`.
  case date
  /// The date is inside a `skip` range.
  case range(DateRange)
  /// An all-day event of a `skip_calendars` file covers the date: its SUMMARY (several
  /// joined by ", ").
  case calendar(String)
  /// Skipped once with `alarmclock skip`.
  case once
}

/// An occurrence that does not ring, with why.
public struct SkippedOccurrence: Hashable, Sendable {
  /// The local date the alarm would have rung on.
  public var date: LocalDate
  public var reason: SkipReason

  public init(date: LocalDate, reason: SkipReason) {
    self.date = date
    self.reason = reason
  }
}

/// The days off of every `skip_calendars` file, expanded over a window around today
/// (`today - 1 ... today + aheadDays`). A day past the window is expanded when asked (a
/// `next --from` over years sees every day off), but slowly, so the service rebuilds the
/// table once today passes the window's middle (`isStale`).
public struct DaysOff: Sendable {
  /// How many days past today the table reaches.
  public static let aheadDays = 400

  /// How far past the query a calendar's days off are followed before the schedule
  /// decides the alarm does not ring: ten years.
  public static let searchDays = 3653

  /// Per file (resolved path).
  public let tables: [String: ICalendarDaysOff]

  /// No calendar: no day is off.
  public init() { tables = [:] }

  /// Expands `files` (by resolved path) over `today - 1 ... today + aheadDays`.
  public init(files: [String: ICalendarFile], today: LocalDate) {
    let first = today.adding(days: -1)
    let last = today.adding(days: Self.aheadDays)
    tables = files.mapValues { ICalendarDaysOff([$0], from: first, through: last) }
  }

  /// The last day every table knows about; nil without calendars.
  public var end: LocalDate? { tables.values.map(\.window.upperBound).min() }

  /// Whether `today` is past the middle of the window: time to rebuild.
  public func isStale(today: LocalDate) -> Bool {
    tables.values.contains { table in
      let middle = table.window.lowerBound.adding(days: (Self.aheadDays + 1) / 2)
      return today > middle || today < table.window.lowerBound
    }
  }

  /// Why `date` is a day off in any of `calendars` (summaries joined by ", "), or nil.
  public func reason(on date: LocalDate, calendars: [String]) -> String? {
    var names: [String] = []
    for path in calendars {
      if let reason = tables[path]?.reason(on: date), !names.contains(reason) {
        names.append(reason)
      }
    }
    return names.isEmpty ? nil : names.joined(separator: ", ")
  }
}
