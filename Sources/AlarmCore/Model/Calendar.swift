/// Civil-calendar values with no time zone attached, and the proleptic
/// Gregorian arithmetic the schedule needs. Pure: no Foundation calendar, so
/// results never depend on the host's ICU data or locale.

/// A day of the week, numbered as ISO 8601 does (Monday = 1 ... Sunday = 7).
public enum Weekday: Int, CaseIterable, Sendable, Hashable, Comparable, Codable {
  case monday = 1
  case tuesday, wednesday, thursday, friday, saturday, sunday

  /// The config file's spelling: `mon` ... `sun`.
  public var key: String {
    ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
  }

  /// Parses `mon`..`sun` (also the full English names), case-insensitively.
  public init?(key: String) {
    let k = key.lowercased()
    for day in Weekday.allCases where day.key == k || Weekday.fullNames[day.rawValue - 1] == k {
      self = day
      return
    }
    return nil
  }

  static let fullNames = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A calendar date without a time zone (TOML "local date").
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// Whether the fields name a real day (e.g. not Feb 30, not Feb 29 of 2027).
  public var isValid: Bool {
    month >= 1 && month <= 12 && day >= 1 && day <= LocalDate.daysIn(month: month, year: year)
  }

  public static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 (negative before it). Howard Hinnant's algorithm.
  public var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  /// The date `days` days after 1970-01-01.
  public init(daysSinceEpoch days: Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
  }

  public var weekday: Weekday {
    // 1970-01-01 was a Thursday (ISO 4).
    let d = daysSinceEpoch
    let r = ((d % 7) + 7) % 7
    return Weekday(rawValue: (r + 3) % 7 + 1)!
  }

  public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

  public static func < (a: LocalDate, b: LocalDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  /// ISO 8601: `2027-03-28`.
  public var description: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  /// Parses `YYYY-MM-DD`; nil unless it names a real day.
  public init?(iso text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
    else { return nil }
    self.init(year: y, month: m, day: d)
    guard isValid else { return nil }
  }
}

/// A wall-clock time of day without a date or zone (TOML "local time").
public struct LocalTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var hour: Int
  public var minute: Int
  public var second: Int

  public init(hour: Int, minute: Int, second: Int = 0) {
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  public var isValid: Bool {
    (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<60).contains(second)
  }

  /// Seconds since midnight.
  public var secondsOfDay: Int { hour * 3600 + minute * 60 + second }

  public init(secondsOfDay s: Int) {
    self.init(hour: s / 3600, minute: s / 60 % 60, second: s % 60)
  }

  public static func < (a: LocalTime, b: LocalTime) -> Bool { a.secondsOfDay < b.secondsOfDay }

  /// `06:45`, or `06:45:30` when the seconds are not zero.
  public var description: String {
    second == 0
      ? "\(pad(hour, 2)):\(pad(minute, 2))" : "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
  }

  /// Parses `HH:MM` or `HH:MM:SS` (24-hour clock).
  public init?(text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3,
      parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
      let h = Int(parts[0]), let m = Int(parts[1])
    else { return nil }
    let s = parts.count == 3 ? Int(parts[2]) : 0
    guard let s else { return nil }
    self.init(hour: h, minute: m, second: s)
    guard isValid else { return nil }
  }
}

/// A point on the UTC time line: whole seconds since the Unix epoch plus a
/// millisecond part. Firings are whole seconds; an instant read from the clock
/// (a press, a command) keeps its milliseconds, so a deadline counted from it
/// (a snooze end, a ring period's end) is exact to the millisecond.
/// The core never reads the clock: callers pass instants in.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var seconds: Int64
  /// 0...999, added to `seconds`.
  public var milliseconds: Int

  /// A whole-second instant.
  public init(seconds: Int64) {
    self.seconds = seconds
    self.milliseconds = 0
  }

  /// `seconds` plus `milliseconds` (any value: carried into the seconds).
  public init(seconds: Int64, milliseconds: Int64) {
    self.init(totalMilliseconds: seconds * 1000 + milliseconds)
  }

  /// Milliseconds since the epoch (floored: -1 ms is 999 ms into second -1).
  public init(totalMilliseconds ms: Int64) {
    let (q, r) = ms.quotientAndRemainder(dividingBy: 1000)
    self.seconds = r < 0 ? q - 1 : q
    self.milliseconds = Int(r < 0 ? r + 1000 : r)
  }

  /// Milliseconds since the epoch.
  public var totalMilliseconds: Int64 { seconds * 1000 + Int64(milliseconds) }

  /// The same instant cut to its whole second.
  public var wholeSecond: Instant { Instant(seconds: seconds) }

  public static func < (a: Instant, b: Instant) -> Bool {
    (a.seconds, a.milliseconds) < (b.seconds, b.milliseconds)
  }
  /// Durations count to the millisecond (finer parts are dropped).
  public static func + (a: Instant, d: Duration) -> Instant {
    Instant(totalMilliseconds: a.totalMilliseconds + d.totalMilliseconds)
  }
  public static func - (a: Instant, d: Duration) -> Instant {
    Instant(totalMilliseconds: a.totalMilliseconds - d.totalMilliseconds)
  }
  public static func - (a: Instant, b: Instant) -> Duration {
    .milliseconds(a.totalMilliseconds - b.totalMilliseconds)
  }

  public var description: String {
    milliseconds == 0 ? "@\(seconds)" : "@\(seconds).\(pad(milliseconds, 3))"
  }
}

extension Duration {
  /// The duration in whole milliseconds, truncated toward zero.
  var totalMilliseconds: Int64 {
    let c = components
    return c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000
  }
}

func pad(_ value: Int, _ width: Int) -> String {
  let s = String(abs(value))
  let body = s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  return value < 0 ? "-" + body : body
}
