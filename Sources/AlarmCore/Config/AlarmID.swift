/// Alarm ids: written in the file, or derived from the alarm's own label and time,
/// so editing one alarm never renames another (see docs/config.md, "Alarm ids").
public enum AlarmID {
  /// The longest id accepted.
  public static let maxLength = 64
  /// Longest label part of a derived id.
  static let maxSlugLength = 24

  /// Whether `id` may be written in the file: `[a-z0-9][a-z0-9_-]*`, at most 64 characters.
  public static func isValid(_ id: String) -> Bool {
    // Every valid id is ASCII, so bytes are scalars here. Read in place (withUTF8):
    // walking the UTF8View cost four times as much, once per alarm of a large config.
    var id = id
    return id.withUTF8 { bytes in
      guard let first = bytes.first, bytes.count <= maxLength, isLowerAlnum(first) else {
        return false
      }
      return bytes.allSatisfy {
        isLowerAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
      }
    }
  }

  /// The base of a derived id: the label's slug (or `alarm`) and the time,
  /// `work-0645`, `alarm-0645`, `nap-133015` (seconds only when not zero).
  public static func base(label: String?, time: LocalTime) -> String {
    let slug = self.slug(label ?? "")
    var clock = pad(time.hour, 2) + pad(time.minute, 2)
    if time.second != 0 { clock += pad(time.second, 2) }
    return (slug.isEmpty ? "alarm" : slug) + "-" + clock
  }

  /// Lower-case ASCII letters and digits of `label`; every other run of characters
  /// becomes one `-`; no `-` at either end; at most 24 characters.
  public static func slug(_ label: String) -> String {
    var out = ""
    var pendingDash = false
    for scalar in label.unicodeScalars {
      var s = scalar
      if s.value >= 65 && s.value <= 90, let lower = Unicode.Scalar(s.value + 32) { s = lower }
      if isLowerAlnum(s) {
        if pendingDash && !out.isEmpty { out += "-" }
        pendingDash = false
        guard out.unicodeScalars.count < maxSlugLength else { break }
        out.unicodeScalars.append(s)
      } else {
        pendingDash = true
      }
    }
    while out.hasSuffix("-") { out.removeLast() }
    return out
  }

  /// Assigns ids to alarms without one, in file order: the base, or on a collision
  /// with any id already taken (explicit ids are all taken first) `base-2`, `base-3`...
  static func derive(bases: [String], taken: inout Set<String>) -> [String] {
    var nextSuffix: [String: Int] = [:]  // so many alarms with one base stay linear
    return bases.map { base in
      var candidate = base
      var n = nextSuffix[base] ?? 2
      while taken.contains(candidate) {
        candidate = "\(base)-\(n)"
        n += 1
      }
      nextSuffix[base] = n
      taken.insert(candidate)
      return candidate
    }
  }

  private static func isLowerAlnum(_ s: Unicode.Scalar) -> Bool {
    s.isASCII && isLowerAlnum(UInt8(s.value))
  }

  private static func isLowerAlnum(_ b: UInt8) -> Bool {
    (b >= 97 && b <= 122) || (b >= 48 && b <= 57)
  }
}
