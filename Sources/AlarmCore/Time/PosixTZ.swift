/// POSIX TZ strings (`CET-1CEST,M3.5.0,M10.5.0/3`), as found in the footer of
/// TZif files (RFC 8536 section 3.3, with the version 3 extensions: transition
/// times from -167 to 167 hours). They give the rules for every instant after
/// a zone's last listed transition, so the far future needs no table.

/// One local time type: an offset from UTC, a DST flag and an abbreviation.
struct LocalType: Hashable, Sendable {
  /// Seconds east of UTC.
  var offset: Int
  var isDST: Bool
  var abbreviation: String
}

/// A parsed POSIX TZ string.
struct PosixTZ: Hashable, Sendable {
  var standard: LocalType
  var daylight: Daylight?

  /// The daylight-saving part: its type and the two yearly rules.
  struct Daylight: Hashable, Sendable {
    var type: LocalType
    /// When DST starts, in standard local time.
    var start: Rule
    /// When DST ends, in daylight local time.
    var end: Rule
  }

  /// A yearly transition: a day of the year and a time on it (may be
  /// negative or past 24 h, which moves it to a neighbouring day).
  struct Rule: Hashable, Sendable {
    enum Day: Hashable, Sendable {
      /// `Jn`: 1...365, February 29 never counted.
      case julian(Int)
      /// `n`: 0...365, February 29 counted in leap years.
      case zeroBased(Int)
      /// `Mm.w.d`: day d (0 = Sunday) of week w (1...5, 5 = last) of month m.
      case monthWeek(month: Int, week: Int, weekday: Int)
    }
    var day: Day
    /// Seconds after local midnight.
    var time: Int

    /// Days since 1970-01-01 of this rule's day in `year`.
    func dayNumber(in year: Int) -> Int {
      let jan1 = LocalDate(year: year, month: 1, day: 1).daysSinceEpoch
      switch day {
      case .julian(let n):
        return jan1 + n - 1 + (LocalDate.isLeap(year) && n >= 60 ? 1 : 0)
      case .zeroBased(let n):
        return jan1 + n
      case .monthWeek(let month, let week, let weekday):
        let first = LocalDate(year: year, month: month, day: 1).daysSinceEpoch
        // 1970-01-01 was a Thursday (POSIX weekday 4).
        let firstWeekday = ((first + 4) % 7 + 7) % 7
        var dom = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
        let length = LocalDate.daysIn(month: month, year: year)
        while dom > length { dom -= 7 }
        return first + dom - 1
      }
    }
  }

  /// One change of local time type produced by the rules.
  struct Change {
    var at: Int64
    var to: LocalType
  }

  /// The DST start and end instants of `year` (by the standard-time calendar),
  /// earliest first. Empty without DST.
  func changes(inYear year: Int) -> [Change] {
    guard let dst = daylight else { return [] }
    let start =
      Int64(dst.start.dayNumber(in: year)) * 86400 + Int64(dst.start.time)
      - Int64(standard.offset)
    let end =
      Int64(dst.end.dayNumber(in: year)) * 86400 + Int64(dst.end.time)
      - Int64(dst.type.offset)
    // On a tie (DST all year, "EST5EDT,0/0,J365/25") the end comes first so
    // daylight time stays in force.
    if end <= start {
      return [Change(at: end, to: standard), Change(at: start, to: dst.type)]
    }
    return [Change(at: start, to: dst.type), Change(at: end, to: standard)]
  }

  /// The year (by the standard-time calendar) an instant falls in.
  func year(of t: Int64) -> Int {
    let days = Int(floorDiv(t + Int64(standard.offset), 86400))
    return LocalDate(daysSinceEpoch: days).year
  }

  /// The changes of the years around `t`, in order; enough to know the type in
  /// force anywhere from a year before `t` to a year after it.
  func changes(around t: Int64) -> [Change] {
    let y = year(of: t)
    return changes(inYear: y - 1) + changes(inYear: y) + changes(inYear: y + 1)
  }

  /// The local time type in force at `t`.
  func type(at t: Int64) -> LocalType {
    guard daylight != nil else { return standard }
    var current = standard
    for change in changes(around: t) {
      if change.at <= t { current = change.to } else { break }
    }
    return current
  }
}

/// Floor division, for instants before the epoch.
@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
  let q = a / b
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Reads a POSIX TZ string. Throws with the position and the reason.
struct PosixTZParser {
  private let chars: [UInt8]
  private var index = 0
  private let text: String

  init(_ text: String) {
    self.text = text
    self.chars = Array(text.utf8)
  }

  static func parse(_ text: String) throws(TimeZoneError) -> PosixTZ {
    var parser = PosixTZParser(text)
    return try parser.parseAll()
  }

  private func fail(_ why: String) -> TimeZoneError {
    TimeZoneError("invalid POSIX TZ string \"\(text)\" at character \(index + 1): \(why)")
  }

  private var peek: UInt8? { index < chars.count ? chars[index] : nil }

  private mutating func parseAll() throws(TimeZoneError) -> PosixTZ {
    let stdName = try name()
    let stdOffset = try -offset(maxHours: 24)
    let standard = LocalType(offset: stdOffset, isDST: false, abbreviation: stdName)
    if peek == nil { return PosixTZ(standard: standard, daylight: nil) }
    let dstName = try name()
    var dstOffset = stdOffset + 3600
    if let c = peek, c != UInt8(ascii: ",") { dstOffset = try -offset(maxHours: 24) }
    let type = LocalType(offset: dstOffset, isDST: true, abbreviation: dstName)
    let start: PosixTZ.Rule
    let end: PosixTZ.Rule
    if peek == nil {
      // No rule: glibc's default, the US rules since 2007.
      start = .init(day: .monthWeek(month: 3, week: 2, weekday: 0), time: 7200)
      end = .init(day: .monthWeek(month: 11, week: 1, weekday: 0), time: 7200)
    } else {
      try expect(",")
      start = try rule()
      try expect(",")
      end = try rule()
    }
    guard peek == nil else { throw fail("unexpected text after the rules") }
    return PosixTZ(standard: standard, daylight: .init(type: type, start: start, end: end))
  }

  private mutating func expect(_ c: Unicode.Scalar) throws(TimeZoneError) {
    guard peek == UInt8(ascii: c) else { throw fail("expected '\(c)'") }
    index += 1
  }

  /// `CET` (three or more letters) or `<+1030>` (letters, digits, + and -).
  private mutating func name() throws(TimeZoneError) -> String {
    let begin = index
    if peek == UInt8(ascii: "<") {
      index += 1
      let inner = index
      while let c = peek, c != UInt8(ascii: ">") {
        guard isAlpha(c) || isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
        else { throw fail("unexpected character in a <quoted> zone name") }
        index += 1
      }
      guard peek == UInt8(ascii: ">") else { throw fail("unterminated <quoted> zone name") }
      let value = String(decoding: chars[inner..<index], as: UTF8.self)
      index += 1
      guard value.utf8.count >= 3 else { throw fail("a zone name needs at least 3 characters") }
      return value
    }
    while let c = peek, isAlpha(c) { index += 1 }
    guard index - begin >= 3 else { throw fail("a zone name needs at least 3 letters") }
    return String(decoding: chars[begin..<index], as: UTF8.self)
  }

  /// `[+-]hh[:mm[:ss]]` in seconds, with POSIX's sign (positive = west).
  private mutating func offset(maxHours: Int) throws(TimeZoneError) -> Int {
    var sign = 1
    if peek == UInt8(ascii: "+") {
      index += 1
    } else if peek == UInt8(ascii: "-") {
      sign = -1
      index += 1
    }
    return sign * (try clock(maxHours: maxHours))
  }

  private mutating func clock(maxHours: Int) throws(TimeZoneError) -> Int {
    let hours = try number(maxDigits: 3)
    guard hours <= maxHours else { throw fail("hours must be at most \(maxHours)") }
    var seconds = hours * 3600
    if peek == UInt8(ascii: ":") {
      index += 1
      let minutes = try number(maxDigits: 2)
      guard minutes < 60 else { throw fail("minutes must be below 60") }
      seconds += minutes * 60
      if peek == UInt8(ascii: ":") {
        index += 1
        let secs = try number(maxDigits: 2)
        guard secs < 60 else { throw fail("seconds must be below 60") }
        seconds += secs
      }
    }
    return seconds
  }

  private mutating func number(maxDigits: Int) throws(TimeZoneError) -> Int {
    var value = 0
    var digits = 0
    while let c = peek, isDigit(c), digits < maxDigits {
      value = value * 10 + Int(c - UInt8(ascii: "0"))
      digits += 1
      index += 1
    }
    guard digits > 0 else { throw fail("expected a number") }
    return value
  }

  /// `date[/time]`, time defaulting to 02:00.
  private mutating func rule() throws(TimeZoneError) -> PosixTZ.Rule {
    let day: PosixTZ.Rule.Day
    if peek == UInt8(ascii: "J") {
      index += 1
      let n = try number(maxDigits: 3)
      guard (1...365).contains(n) else { throw fail("Jn needs n in 1...365") }
      day = .julian(n)
    } else if peek == UInt8(ascii: "M") {
      index += 1
      let m = try number(maxDigits: 2)
      try expect(".")
      let w = try number(maxDigits: 1)
      try expect(".")
      let d = try number(maxDigits: 1)
      guard (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else {
        throw fail("Mm.w.d needs m in 1...12, w in 1...5, d in 0...6")
      }
      day = .monthWeek(month: m, week: w, weekday: d)
    } else {
      let n = try number(maxDigits: 3)
      guard (0...365).contains(n) else { throw fail("n needs to be in 0...365") }
      day = .zeroBased(n)
    }
    var time = 7200
    if peek == UInt8(ascii: "/") {
      index += 1
      time = try offset(maxHours: 167)
    }
    return PosixTZ.Rule(day: day, time: time)
  }
}

@inline(__always) private func isAlpha(_ c: UInt8) -> Bool {
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}
@inline(__always) private func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
