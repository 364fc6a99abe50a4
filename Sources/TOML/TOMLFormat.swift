/// Writes values as TOML text, for tools that edit TOML documents in place.
public enum TOMLFormat {
  /// `s` as a basic string literal: `"..."` with `"`, `\`, C0 and C1 control characters
  /// and the bidi embedding, override and isolate controls escaped, so the text is safe
  /// to show on a terminal too (messages quote with it). Parsing the result gives back `s`.
  public static func quoted(_ s: String) -> String {
    var out = "\""
    out.reserveCapacity(s.utf8.count + 2)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\u{08}": out += "\\b"
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\u{0C}": out += "\\f"
      case "\r": out += "\\r"
      default:
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
          out += "\\u" + hex(scalar.value, width: 4)
        default:
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
    return out
  }

  /// `s` cut to `limit` characters, with `…` appended when it was longer: source text
  /// echoed in a message (a 10,000-digit number, a megabyte label) is never shown whole.
  public static func excerpt(_ s: some StringProtocol, limit: Int = 40) -> String {
    var end = s.startIndex
    for _ in 0..<limit {
      guard end < s.endIndex else { return String(s) }
      end = s.index(after: end)
    }
    return end < s.endIndex ? String(s[..<end]) + "…" : String(s)
  }

  /// A key segment: bare if it may be written bare, else quoted.
  public static func key(_ s: String) -> String {
    if !s.isEmpty && s.utf8.allSatisfy(ASCII.isBareKey) { return s }
    return quoted(s)
  }

  /// A dotted key path such as `alarm."wake up".time`.
  public static func keyPath(_ parts: [String]) -> String {
    parts.map(key).joined(separator: ".")
  }

  /// `1979-05-27`.
  public static func date(_ d: TOMLLocalDate) -> String {
    "\(pad(d.year, 4))-\(pad(d.month, 2))-\(pad(d.day, 2))"
  }

  /// `07:32:00`, with the fraction (trailing zeros dropped) when non-zero.
  public static func time(_ t: TOMLLocalTime) -> String {
    var s = "\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))"
    if t.nanosecond > 0 {
      var fraction = pad(t.nanosecond, 9)
      while fraction.last == "0" { fraction.removeLast() }
      s += "." + fraction
    }
    return s
  }

  /// `1979-05-27T07:32:00`.
  public static func dateTime(_ dt: TOMLLocalDateTime) -> String {
    date(dt.date) + "T" + time(dt.time)
  }

  /// `1979-05-27T07:32:00Z` or `1979-05-27T07:32:00-07:00` (RFC 3339).
  public static func offsetDateTime(_ dt: TOMLOffsetDateTime) -> String {
    date(dt.date) + "T" + time(dt.time) + offset(dt.offsetMinutes)
  }

  /// `Z` for zero, else `+HH:MM` / `-HH:MM`.
  public static func offset(_ minutes: Int) -> String {
    if minutes == 0 { return "Z" }
    let m = minutes.magnitude
    return (minutes < 0 ? "-" : "+") + pad(Int(m / 60), 2) + ":" + pad(Int(m % 60), 2)
  }

  /// A float as TOML: `inf`, `-inf`, `nan`, or a decimal that reads back
  /// as the same `Double` (always with a `.` or exponent).
  public static func float(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d.isInfinite { return d < 0 ? "-inf" : "inf" }
    let s = d.description
    if s.contains(".") || s.contains("e") { return s }
    return s + ".0"
  }

  /// Any value as TOML text; tables are written inline (`{ k = v }`).
  public static func value(_ v: TOMLValue) -> String {
    switch v {
    case .string(let s): return quoted(s)
    case .integer(let n): return String(n)
    case .float(let d): return float(d)
    case .boolean(let b): return b ? "true" : "false"
    case .offsetDateTime(let dt): return offsetDateTime(dt)
    case .localDateTime(let dt): return dateTime(dt)
    case .localDate(let d): return date(d)
    case .localTime(let t): return time(t)
    case .array(let a):
      return "[" + a.elements.map { value($0.value) }.joined(separator: ", ") + "]"
    case .table(let t):
      if t.entries.isEmpty { return "{}" }
      let body = t.entries.map { key($0.key) + " = " + value($0.node.value) }
      return "{ " + body.joined(separator: ", ") + " }"
    }
  }

  /// `n` in decimal, zero-padded to `width` digits (a sign stays in front).
  static func pad(_ n: Int, _ width: Int) -> String {
    let digits = String(n.magnitude)
    let zeros = String(repeating: "0", count: max(0, width - digits.count))
    return (n < 0 ? "-" : "") + zeros + digits
  }
}
