/// An RRULE for an all-day event: the date-level subset of RFC 5545 3.3.10.
public struct ICalendarRule: Hashable, Sendable {
  /// The supported frequencies (sub-daily ones make no sense for a whole day).
  public enum Frequency: String, Hashable, Sendable {
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
  }

  /// A BYDAY entry: `MO` (ordinal 0), `4TH`, `-1SU`.
  public struct DaySpec: Hashable, Sendable {
    /// 0 for every such weekday; n (-n) for the n-th (n-th last) in the period.
    public var ordinal: Int
    public var weekday: Weekday
  }

  /// FREQ: the period the rule repeats by.
  public var frequency: Frequency
  /// INTERVAL: every n-th period.
  public var interval = 1
  /// COUNT: how many dates the rule produces (DTSTART aside, see docs/icalendar.md).
  public var count: Int?
  /// UNTIL: the last date an instance may start on (a DATE-TIME UNTIL keeps its date).
  public var until: LocalDate?
  /// BYMONTH: months 1 to 12.
  public var byMonth: [Int] = []
  /// BYMONTHDAY: days 1 to 31, or -1 (the last) to -31.
  public var byMonthDay: [Int] = []
  /// BYDAY.
  public var byDay: [DaySpec] = []
  /// BYSETPOS: positions (from the end when negative) in each period's dates.
  public var bySetPos: [Int] = []
  /// WKST: the first day of a week, for FREQ=WEEKLY with INTERVAL > 1.
  public var weekStart: Weekday = .monday

  /// Parses an RRULE value; on failure, the message says which part is wrong.
  static func parse(_ value: String) -> Result<ICalendarRule, RuleError> {
    var parts: [String: String] = [:]
    for part in value.split(separator: ";", omittingEmptySubsequences: true) {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { return .failure(.init("rrule part '\(part)' has no '='")) }
      parts[pair[0].uppercased()] = String(pair[1]).uppercased()
    }
    guard let freqText = parts.removeValue(forKey: "FREQ") else {
      return .failure(.init("rrule has no freq"))
    }
    guard let frequency = Frequency(rawValue: freqText) else {
      return .failure(
        .init("rrule freq=\(freqText.lowercased()) is not supported on an all-day event"))
    }
    var rule = ICalendarRule(frequency: frequency)
    func numbers(_ key: String, _ range: ClosedRange<Int>) -> [Int]? {
      guard let text = parts.removeValue(forKey: key) else { return [] }
      let list = text.split(separator: ",").map { Int($0) }
      guard !list.isEmpty,
        list.allSatisfy({ $0.map { range.contains(abs($0)) && $0 != 0 } ?? false })
      else { return nil }
      return list.map { $0! }
    }
    if let text = parts.removeValue(forKey: "INTERVAL") {
      guard let n = Int(text), n >= 1, n <= 10_000 else {
        return .failure(.init("rrule interval=\(text) is not a positive number"))
      }
      rule.interval = n
    }
    if let text = parts.removeValue(forKey: "UNTIL") {
      guard let until = ICalendarValue.dateOrDateTime(text) else {
        return .failure(.init("rrule until=\(text) is not a date"))
      }
      rule.until = until.date
    }
    // Confluence writes COUNT=-1 beside UNTIL; recurring-ical-events then goes
    // by UNTIL. A COUNT beside UNTIL also bounds (both apply, as in dateutil).
    if let text = parts.removeValue(forKey: "COUNT") {
      let n = Int(text)
      if let n, n >= 1 {
        rule.count = n
      } else if n == nil || rule.until == nil || n == 0 {
        return .failure(.init("rrule count=\(text) is not a positive number"))
      }
    }
    guard let months = numbers("BYMONTH", 1...12), months.allSatisfy({ $0 > 0 }) else {
      return .failure(.init("rrule bymonth is not a list of months 1 to 12"))
    }
    rule.byMonth = months
    guard let monthDays = numbers("BYMONTHDAY", 1...31) else {
      return .failure(.init("rrule bymonthday is not a list of days 1 to 31 or -31 to -1"))
    }
    rule.byMonthDay = monthDays
    guard let setPos = numbers("BYSETPOS", 1...366) else {
      return .failure(.init("rrule bysetpos is not a list of positions"))
    }
    rule.bySetPos = setPos
    if let text = parts.removeValue(forKey: "BYDAY") {
      for item in text.split(separator: ",") {
        guard let spec = daySpec(item) else {
          return .failure(
            .init("rrule byday entry '\(item)' is not a weekday such as mo, 1mo or -1su"))
        }
        rule.byDay.append(spec)
      }
    }
    if let text = parts.removeValue(forKey: "WKST") {
      guard let day = weekday(Substring(text)) else {
        return .failure(.init("rrule wkst=\(text.lowercased()) is not a weekday"))
      }
      rule.weekStart = day
    }
    if let unknown = parts.keys.sorted().first {
      return .failure(.init("rrule part \(unknown.lowercased()) is not supported"))
    }
    let ordinals = rule.byDay.contains { $0.ordinal != 0 }
    if ordinals && !(frequency == .monthly || (frequency == .yearly)) {
      return .failure(.init("rrule byday with a number needs freq=monthly or freq=yearly"))
    }
    if ordinals && frequency == .yearly && !rule.byMonth.isEmpty
      && rule.byDay.contains(where: { abs($0.ordinal) > 5 })
    {
      return .failure(.init("rrule byday number is more than 5 within a month"))
    }
    if frequency == .weekly && !rule.byMonthDay.isEmpty {
      return .failure(.init("rrule bymonthday cannot be used with freq=weekly"))
    }
    return .success(rule)
  }

  struct RuleError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  private static func weekday(_ text: Substring) -> Weekday? {
    let names = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    return names.firstIndex(of: String(text)).flatMap { Weekday(rawValue: $0 + 1) }
  }

  private static func daySpec(_ item: Substring) -> DaySpec? {
    guard item.count >= 2, let day = weekday(item.suffix(2)) else { return nil }
    let prefix = item.dropLast(2)
    if prefix.isEmpty { return DaySpec(ordinal: 0, weekday: day) }
    guard let n = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix), n != 0, abs(n) <= 53
    else { return nil }
    return DaySpec(ordinal: n, weekday: day)
  }
}
