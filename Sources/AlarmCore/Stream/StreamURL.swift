/// The documented rule for a stream sound: an `http://` or `https://` URL, checked offline
/// (its form only) by the config check and the web page, and again by the stream helper
/// before it opens anything.
public enum StreamURL {
  /// The longest URL accepted (what common servers and browsers take on a request line).
  public static let maxLength = 2048

  /// Whether `value` is meant as a stream: it starts with `http://` or `https://` (in
  /// any case). Everything else is a sound file's name or path.
  public static func isStream(_ value: String) -> Bool {
    let lower = value.prefix(8).lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }

  /// Why `value` (a stream, `isStream`) cannot be opened as one, or nil when its form is
  /// right: a host, an optional port in 1-65535, no spaces or control characters, at most
  /// `maxLength` bytes. Nothing is looked up.
  public static func problem(_ value: String) -> String? {
    guard isStream(value) else {
      return "a stream must be an http:// or https:// URL"
    }
    if value.utf8.count > maxLength {
      return "the URL is \(value.utf8.count) bytes long; at most \(maxLength) are accepted"
    }
    if let c = value.unicodeScalars.first(where: {
      $0.value <= 0x20 || (0x7f...0x9f).contains($0.value)
    }) {
      return c == " "
        ? "a URL must not contain spaces; write them as %20"
        : "a URL must not contain control characters (U+\(hex4(c.value)))"
    }
    guard let parts = Parts(value) else {
      return "the URL has no host: write it as http://host/path"
    }
    if parts.host.isEmpty { return "the URL has no host: write it as http://host/path" }
    if parts.host.hasPrefix("[") {
      guard parts.host.hasSuffix("]"), parts.host.count > 2 else {
        return "the URL's IPv6 address is not closed with ']'"
      }
    } else if let bad = parts.host.unicodeScalars.first(where: { !hostScalar($0) }) {
      return "the URL's host '\(parts.host)' has a character a host name cannot have ('\(bad)')"
    }
    if let port = parts.port {
      guard let n = Int(port), (1...65535).contains(n), port.allSatisfy(\.isASCII) else {
        return "the URL's port '\(port)' is not a number from 1 to 65535"
      }
    }
    return nil
  }

  /// `value` with a password in it replaced by `***`, for logs and `status`.
  public static func redacted(_ value: String) -> String {
    guard let parts = Parts(value), let user = parts.userInfo, user.contains(":") else {
      return value
    }
    let name = user.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    return parts.scheme + "://" + name + ":***@" + parts.rest
  }

  /// The pieces of an http(s) URL that the checks need; no percent-decoding.
  struct Parts {
    var scheme: String
    var userInfo: String?
    var host: String
    var port: String?
    /// Everything after the scheme's `://` but the user info.
    var rest: String

    init?(_ value: String) {
      guard let colon = value.firstIndex(of: ":"), value[colon...].hasPrefix("://") else {
        return nil
      }
      scheme = String(value[..<colon]).lowercased()
      let afterScheme = value[value.index(colon, offsetBy: 3)...]
      let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
      var authority = afterScheme[..<(authorityEnd ?? afterScheme.endIndex)]
      if let at = authority.lastIndex(of: "@") {
        userInfo = String(authority[..<at])
        authority = authority[authority.index(after: at)...]
      }
      rest = String(authority) + String(afterScheme[(authorityEnd ?? afterScheme.endIndex)...])
      if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
        host = String(authority[...close])
        let after = authority[authority.index(after: close)...]
        port = after.hasPrefix(":") ? String(after.dropFirst()) : nil
        if !after.isEmpty && port == nil { return nil }
      } else if let colon = authority.lastIndex(of: ":") {
        host = String(authority[..<colon])
        port = String(authority[authority.index(after: colon)...])
      } else {
        host = String(authority)
      }
    }
  }

  private static func hostScalar(_ c: Unicode.Scalar) -> Bool {
    switch c {
    case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "%": return true
    default: return c.value > 0x7f  // an internationalised name, resolved as given
    }
  }

  private static func hex4(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
  }
}
