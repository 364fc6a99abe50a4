/// ISO 8601 date-times as the CLI prints and reads them.
public enum ISO8601Text {
  /// `2027-03-28T03:30:00+02:00`: local time in `zone` with its offset (never
  /// `Z`; UTC is `+00:00`). Offsets with seconds (historical local mean time)
  /// are written `+00:53:28`.
  public static func format(_ instant: Instant, in zone: TimeZoneRules) -> String {
    let (date, time, offset) = zone.local(at: instant)
    let clock = "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
    let a = abs(offset)
    var zoneText = "\(offset < 0 ? "-" : "+")\(pad(a / 3600, 2)):\(pad(a / 60 % 60, 2))"
    if a % 60 != 0 { zoneText += ":\(pad(a % 60, 2))" }
    return "\(date)T\(clock)\(zoneText)"
  }

  /// The wall date and time written in `2027-03-28T06:45:00+02:00` (the writer's zone).
  public static func localParts(_ text: String) -> (date: LocalDate, time: LocalTime)? {
    let chars = Array(text.utf8)
    guard chars.count >= 19,
      let date = LocalDate(iso: String(decoding: chars[0..<10], as: UTF8.self)),
      let time = LocalTime(text: String(decoding: chars[11..<19], as: UTF8.self))
    else { return nil }
    return (date, time)
  }

  /// Reads `2027-03-28T06:45:00+02:00`, `2027-03-28T06:45:00Z`, a local
  /// `2027-03-28T06:45[:00]` or `2027-03-28 06:45` (a wall time in `zone`, by
  /// RFC 5545's gap and overlap rules), or a bare date `2027-03-28` (local
  /// midnight). Fractional seconds are accepted and dropped. Nil otherwise.
  public static func parse(_ text: String, in zone: TimeZoneRules) -> Instant? {
    let chars = Array(text.utf8)
    guard chars.count >= 10,
      let date = LocalDate(iso: String(decoding: chars[0..<10], as: UTF8.self))
    else { return nil }
    if chars.count == 10 { return zone.instant(for: date, LocalTime(hour: 0, minute: 0)) }
    guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(chars[10]) else {
      return nil
    }
    var i = 11
    func twoDigits() -> Int? {
      guard i + 2 <= chars.count, chars[i..<i + 2].allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        return nil
      }
      defer { i += 2 }
      return Int(chars[i] - 48) * 10 + Int(chars[i + 1] - 48)
    }
    func take(_ c: Unicode.Scalar) -> Bool {
      guard i < chars.count, chars[i] == UInt8(ascii: c) else { return false }
      i += 1
      return true
    }
    guard let hour = twoDigits(), take(":"), let minute = twoDigits() else { return nil }
    var second = 0
    if take(":") {
      guard let s = twoDigits() else { return nil }
      second = s
      if take(".") || take(",") {
        let begin = i
        while i < chars.count, chars[i] >= 48, chars[i] <= 57 { i += 1 }
        guard i > begin else { return nil }
      }
    }
    let time = LocalTime(hour: hour, minute: minute, second: second)
    guard time.isValid else { return nil }
    if i == chars.count { return zone.instant(for: date, time) }
    let wall = Int64(date.daysSinceEpoch) * 86400 + Int64(time.secondsOfDay)
    if take("Z") || take("z") {
      return i == chars.count ? Instant(seconds: wall) : nil
    }
    let sign: Int64
    if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
    guard let oh = twoDigits(), oh <= 23 else { return nil }
    _ = take(":")
    guard let om = twoDigits(), om < 60 else { return nil }
    var os = 0
    if take(":") {
      guard let s = twoDigits(), s < 60 else { return nil }
      os = s
    }
    guard i == chars.count else { return nil }
    return Instant(seconds: wall - sign * Int64(oh * 3600 + om * 60 + os))
  }
}
