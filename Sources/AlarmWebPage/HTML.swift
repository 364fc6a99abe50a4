/// HTML escaping: every value a page shows goes through here, so a label such as
/// `<script>` renders as text and a quote cannot leave an attribute.
enum HTML {
  /// Text for an element's content or a double-quoted attribute value.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      // Controls other than tab and newline have no business in a page.
      case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": out += "\u{FFFD}"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// A path segment of a route (`/alarms/ID`): ids are `[a-z0-9_-]`, but anything else is
  /// percent-encoded rather than trusted.
  static func pathSegment(_ text: String) -> String {
    var out = ""
    for b in text.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "."), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(b))
      default:
        let hex = Array("0123456789ABCDEF")
        out += "%\(hex[Int(b >> 4)])\(hex[Int(b & 15)])"
      }
    }
    return out
  }

  /// A POST form with the hidden `csrf` (unless empty) and `etag` (when given) fields around
  /// `body`.
  static func form(
    action: String, csrf: String, etag: String? = nil, attributes: String = "", _ body: String
  ) -> String {
    var s = "<form method=\"post\" action=\"\(escape(action))\"\(attributes)>"
    if !csrf.isEmpty { s += hidden("csrf", csrf) }
    if let etag { s += hidden("etag", etag) }
    return s + body + "</form>"
  }

  static func hidden(_ name: String, _ value: String) -> String {
    "<input type=\"hidden\" name=\"\(name)\" value=\"\(escape(value))\">"
  }
}
