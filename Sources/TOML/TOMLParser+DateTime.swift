/// Offset date-times, local date-times, local dates and local times
/// (RFC 3339 with TOML's relaxations: `T`, `t` or a space as separator).
extension Parser {
  /// `i` is at `YYYY-`.
  mutating func parseDateOrDateTime() throws(TOMLError) -> TOMLValue {
    let date = try parseDate()
    let b = peek()
    let hasTime: Bool
    if b == 0x54 || b == 0x74 {  // T, t
      hasTime = true
    } else if b == ASCII.space, ASCII.isDigit(peek(1)), ASCII.isDigit(peek(2)),
      peek(3) == ASCII.colon
    {
      hasTime = true
    } else {
      hasTime = false
    }
    guard hasTime else { return .localDate(date) }
    i += 1
    guard ASCII.isDigit(peek()) else {
      throw error("expected a time after the date's '\(Character(Unicode.Scalar(b)))'", at: i)
    }
    let time = try parseTime()
    let o = peek()
    if o == 0x5A || o == 0x7A {  // Z, z
      i += 1
      return .offsetDateTime(TOMLOffsetDateTime(date: date, time: time, offsetMinutes: 0))
    }
    if o == ASCII.plus || o == ASCII.minus {
      let start = i
      i += 1
      let hours = try fixedDigits(2, what: "offset hour")
      try expect(ASCII.colon, "':' between the offset's hours and minutes")
      let minutes = try fixedDigits(2, what: "offset minute")
      if hours > 23 { throw error("offset hour \(hours) is out of range (00-23)", at: start + 1) }
      if minutes > 59 {
        throw error("offset minute \(minutes) is out of range (00-59)", at: start + 4)
      }
      let total = hours * 60 + minutes
      return .offsetDateTime(
        TOMLOffsetDateTime(
          date: date, time: time, offsetMinutes: o == ASCII.minus ? -total : total))
    }
    return .localDateTime(TOMLLocalDateTime(date: date, time: time))
  }

  mutating func parseDate() throws(TOMLError) -> TOMLLocalDate {
    let start = i
    let year = try fixedDigits(4, what: "year")
    try expect(ASCII.minus, "'-' after the year")
    let month = try fixedDigits(2, what: "month")
    try expect(ASCII.minus, "'-' after the month")
    let day = try fixedDigits(2, what: "day")
    if ASCII.isDigit(peek()) { throw error("too many digits in the day", at: i) }
    guard (1...12).contains(month) else {
      throw error("month \(month) is out of range (01-12)", at: start + 5)
    }
    let days = TOMLLocalDate.daysIn(month: month, year: year)
    guard (1...days).contains(day) else {
      throw error(
        "day \(day) is out of range for \(TOMLFormat.pad(year, 4))-\(TOMLFormat.pad(month, 2)) "
          + "(01-\(days))", at: start + 8)
    }
    return TOMLLocalDate(year: year, month: month, day: day)
  }

  /// `HH:MM:SS[.fraction]`. Seconds are required in TOML 1.0. A fraction
  /// finer than nanoseconds is truncated, as the spec asks.
  mutating func parseTime() throws(TOMLError) -> TOMLLocalTime {
    let start = i
    let hour = try fixedDigits(2, what: "hour")
    try expect(ASCII.colon, "':' after the hour")
    let minute = try fixedDigits(2, what: "minute")
    guard peek() == ASCII.colon else {
      throw error("expected ':' and seconds after the minutes (TOML 1.0 requires seconds)", at: i)
    }
    i += 1
    let second = try fixedDigits(2, what: "second")
    if ASCII.isDigit(peek()) { throw error("too many digits in the seconds", at: i) }
    var nanosecond = 0
    if peek() == ASCII.dot {
      i += 1
      guard ASCII.isDigit(peek()) else {
        throw error("expected digits after the decimal point in the seconds", at: i)
      }
      var count = 0
      while ASCII.isDigit(peek()) {
        if count < 9 {
          nanosecond = nanosecond * 10 + Int(peek() - ASCII.zero)
          count += 1
        }
        i += 1
      }
      for _ in count..<9 { nanosecond *= 10 }
    }
    if hour > 23 { throw error("hour \(hour) is out of range (00-23)", at: start) }
    if minute > 59 { throw error("minute \(minute) is out of range (00-59)", at: start + 3) }
    // RFC 3339 allows 60 for a leap second.
    if second > 60 { throw error("second \(second) is out of range (00-60)", at: start + 6) }
    return TOMLLocalTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  }

  private mutating func fixedDigits(_ count: Int, what: String) throws(TOMLError) -> Int {
    var value = 0
    for k in 0..<count {
      let b = peek(k)
      guard ASCII.isDigit(b) else {
        throw error(
          "expected \(count) digits for the \(what), found \(describe(at: i + k))", at: i + k)
      }
      value = value * 10 + Int(b - ASCII.zero)
    }
    i += count
    return value
  }

  private mutating func expect(_ b: UInt8, _ what: String) throws(TOMLError) {
    guard peek() == b else { throw error("expected \(what), found \(describe(at: i))", at: i) }
    i += 1
  }
}

extension TOMLLocalDate {
  /// Days in `month` (1-12) of `year` in the proleptic Gregorian calendar.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
