/// Whether the wall clock can be believed. Alarms follow the clock as it is; a Pi
/// without a real-time clock boots with a wrong one until the network sets it, so
/// `status`, `check` and `next` say when the clock is obviously wrong, and the service
/// logs when it was set and by how much.
public struct ClockTrust: Hashable, Sendable {
  /// Whether the clock is synchronised (NTP); nil: unknown.
  public var synchronized: Bool?
  /// false: the clock reads earlier than this build's release (`isPlausible`).
  public var plausible: Bool
  /// How far the clock last jumped when it was set (forward is positive); nil: not since
  /// the service started.
  public var lastJump: Duration?
  /// When the service saw the clock become synchronised (ISO 8601); nil: not seen.
  public var synchronizedAt: String?

  public init(
    synchronized: Bool?, plausible: Bool, lastJump: Duration? = nil,
    synchronizedAt: String? = nil
  ) {
    self.synchronized = synchronized
    self.plausible = plausible
    self.lastJump = lastJump
    self.synchronizedAt = synchronizedAt
  }

  /// The earliest instant a right clock can show: the day before this build's release
  /// (a day of slack for zones ahead of UTC and a build made the evening before).
  public static var earliestPlausible: Instant {
    Instant(seconds: Int64(AlarmclockVersion.releaseDate.daysSinceEpoch - 1) * 86_400)
  }

  /// Whether `now` can be right: not before `earliestPlausible`.
  public static func isPlausible(_ now: Instant) -> Bool { now >= earliestPlausible }

  /// The warning `check` and `next` print when the clock is obviously wrong; nil when
  /// it is plausible.
  public static func warning(now: Instant, zone: TimeZoneRules) -> String? {
    guard !isPlausible(now) else { return nil }
    return "warning: the clock says \(ISO8601Text.format(now, in: zone)), before this "
      + "alarmclock was released (\(AlarmclockVersion.releaseDate)): it is wrong, and "
      + "alarms follow it until it is set (is the network or NTP down?)"
  }

  /// A clock jump for the log: `+3 d 4 h`, `-5 min 3 s`, `+0.25 s`.
  public static func jumpText(_ jump: Duration) -> String {
    let ms = jump.totalMilliseconds
    let sign = ms < 0 ? "-" : "+"
    let a = abs(ms)
    if a < 10_000 {
      let text = String(Double(a) / 1000)
      return sign + (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " s"
    }
    // Rounded: a jump is measured against the boot clock, a few milliseconds off.
    let s = (a + 500) / 1000
    let units: [(Int64, String)] = [(86_400, "d"), (3600, "h"), (60, "min"), (1, "s")]
    var parts: [String] = []
    var rest = s
    for (size, name) in units where parts.count < 2 {
      let n = rest / size
      rest %= size
      if n > 0 || !parts.isEmpty { parts.append("\(n) \(name)") }
    }
    // "3 d 0 h" says no more than "3 d".
    if parts.count == 2, parts[1].hasPrefix("0 ") { parts.removeLast() }
    return sign + parts.joined(separator: " ")
  }
}
