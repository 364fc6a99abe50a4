/// Durations as people write them in the config: `90s`, `9m`, `1h30m`, `0s`,
/// and for button timings `250ms` or `1.5s`.
public enum DurationText {
  /// Parses a sequence of `<number><unit>` with units `h`, `m`, `s`, `ms`, in that
  /// order, each at most once (`1h30m`, `2m30s`, `1s500ms`). Only seconds may carry a
  /// decimal fraction (`1.5s`, at most 9 digits). Each number is at most 10,000,000.
  /// Returns nil for anything else, including bare numbers: a unit is required.
  public static func parse(_ text: String) -> Duration? {
    let chars = Array(text.unicodeScalars)
    var i = 0
    var total = Duration.zero
    var lastUnit = 0  // 0 none, 1 h, 2 m, 3 s, 4 ms: units must descend
    while i < chars.count {
      guard let whole = number(chars, &i) else { return nil }
      var nanos: Int64 = 0
      var hasFraction = false
      if i < chars.count, chars[i] == "." {
        i += 1
        var digits = 0
        var scale: Int64 = 100_000_000
        while i < chars.count, let d = digit(chars[i]) {
          digits += 1
          guard digits <= 9 else { return nil }
          nanos += d * scale
          scale /= 10
          i += 1
        }
        guard digits > 0 else { return nil }
        hasFraction = true
      }
      guard i < chars.count else { return nil }
      let unit: Int
      let seconds: Int64
      switch chars[i] {
      case "h": (unit, seconds) = (1, 3600)
      case "m" where i + 1 < chars.count && chars[i + 1] == "s":
        (unit, seconds) = (4, 0)
        i += 1
      case "m": (unit, seconds) = (2, 60)
      case "s": (unit, seconds) = (3, 1)
      default: return nil
      }
      i += 1
      guard unit > lastUnit, !hasFraction || unit == 3 else { return nil }
      lastUnit = unit
      if unit == 4 {
        total += .milliseconds(whole)
      } else {
        total += .seconds(whole * seconds) + .nanoseconds(nanos)
      }
    }
    return lastUnit == 0 ? nil : total
  }

  private static func digit(_ c: Unicode.Scalar) -> Int64? {
    c.value >= 48 && c.value <= 57 ? Int64(c.value - 48) : nil
  }

  private static func number(_ chars: [Unicode.Scalar], _ i: inout Int) -> Int64? {
    var value: Int64? = nil
    while i < chars.count, let d = digit(chars[i]) {
      let v = (value ?? 0) * 10 + d
      if v > 10_000_000 { return nil }
      value = v
      i += 1
    }
    return value
  }

  /// The shortest spelling `parse` accepts: `9m`, `1h30m`, `0s`, `250ms`, `1.5s`.
  public static func format(_ duration: Duration) -> String {
    let (s, atto) = duration.components
    let nanos = atto / 1_000_000_000
    if s == 0 && nanos == 0 { return "0s" }
    if s == 0 && nanos % 1_000_000 == 0 { return "\(nanos / 1_000_000)ms" }
    var out = ""
    if s >= 3600 { out += "\(s / 3600)h" }
    if s % 3600 >= 60 { out += "\(s % 3600 / 60)m" }
    if s % 60 != 0 || nanos != 0 {
      out += "\(s % 60)"
      if nanos != 0 {
        var fraction = pad(Int(nanos), 9)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        out += "." + fraction
      }
      out += "s"
    }
    return out
  }

  /// A duration for people reading a log: `42 s`, `9 min`, `9 min 30 s`, `1 h 5 min`,
  /// `3 days` (whole seconds, larger units from two days on).
  public static func spoken(_ duration: Duration) -> String {
    let s = duration.components.seconds
    if s < 60 { return "\(s) s" }
    if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
    if s < 172_800 { return "\(s / 3600) h \(s % 3600 / 60) min" }
    return "\(s / 86_400) days"
  }

  /// A latency: `1.23 ms` (two decimals, trailing zeros dropped: `0.5 ms`, `12.0 ms`).
  public static func milliseconds(_ duration: Duration) -> String {
    let (s, atto) = duration.components
    let ms = Double(s) * 1000 + Double(atto) / 1e15
    return "\((ms * 100).rounded() / 100) ms"
  }
}
