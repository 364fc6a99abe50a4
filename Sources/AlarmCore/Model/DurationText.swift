/// Durations as people write them in the config: `90s`, `9m`, `1h30m`, `0s`.
public enum DurationText {
  /// Parses a sequence of `<integer><unit>` with units h, m, s (in that order,
  /// each at most once). Returns nil for anything else.
  public static func parse(_ text: String) -> Duration? {
    var total: Int64 = 0
    var number: Int64? = nil
    var lastUnit = 0  // 0 none, 1 h, 2 m, 3 s: units must descend
    for ch in text {
      if let digit = ch.wholeNumberValue, ch.isASCII {
        let (m, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
        let (v, o2) = m.addingReportingOverflow(Int64(digit))
        if o1 || o2 || v > 10_000_000 { return nil }
        number = v
        continue
      }
      guard let n = number else { return nil }
      let unit: Int
      let scale: Int64
      switch ch {
      case "h": (unit, scale) = (1, 3600)
      case "m": (unit, scale) = (2, 60)
      case "s": (unit, scale) = (3, 1)
      default: return nil
      }
      guard unit > lastUnit else { return nil }
      lastUnit = unit
      total += n * scale
      number = nil
    }
    guard number == nil, lastUnit != 0 else { return nil }
    return .seconds(total)
  }

  /// The shortest spelling `parse` accepts: `9m`, `1h30m`, `0s`.
  public static func format(_ duration: Duration) -> String {
    let s = duration.components.seconds
    if s == 0 { return "0s" }
    var out = ""
    if s >= 3600 { out += "\(s / 3600)h" }
    if s % 3600 >= 60 { out += "\(s % 3600 / 60)m" }
    if s % 60 != 0 { out += "\(s % 60)s" }
    return out
  }
}
