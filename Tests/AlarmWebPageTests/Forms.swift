import Foundation

/// Pulls the forms out of a rendered page, so tests check what a browser would post.
struct Form {
  var action: String
  var html: String

  /// The `name=value` pairs of the hidden inputs.
  var hidden: [String: String] {
    var out: [String: String] = [:]
    for tag in tags("input") where attribute("type", tag) == "hidden" {
      if let n = attribute("name", tag) { out[n] = unescape(attribute("value", tag) ?? "") }
    }
    return out
  }

  func tags(_ name: String) -> [String] { Form.tags(name, in: html) }

  /// The `<option>` tags of the `<select name="NAME">` in `html`.
  static func options(of select: String, in html: String) -> [String] {
    guard let start = html.range(of: "<select name=\"\(select)\">"),
      let end = html.range(of: "</select>", range: start.upperBound..<html.endIndex)
    else { return [] }
    return tags("option", in: String(html[start.upperBound..<end.lowerBound]))
  }

  static func all(_ page: String) -> [Form] {
    var forms: [Form] = []
    var rest = Substring(page)
    while let start = rest.range(of: "<form "), let end = rest.range(of: "</form>") {
      let html = String(rest[start.lowerBound..<end.upperBound])
      let open = tags("form", in: html)[0]
      forms.append(Form(action: attribute("action", open) ?? "", html: html))
      rest = rest[end.upperBound...]
    }
    return forms
  }

  static func tags(_ name: String, in html: String) -> [String] {
    html.components(separatedBy: "<" + name + " ").dropFirst().map {
      String($0.prefix { $0 != ">" })
    }
  }
}

/// The value of `name="..."` in a tag's text (the pages always double-quote values).
func attribute(_ name: String, _ tag: String) -> String? {
  let text = " " + tag
  guard let r = text.range(of: " " + name + "=\"") else { return nil }
  return String(text[r.upperBound...].prefix { $0 != "\"" })
}

/// Undoes the page's escaping of an attribute value, as a browser does before posting it.
func unescape(_ value: String) -> String {
  [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")].reduce(value) {
    $0.replacingOccurrences(of: $1.0, with: $1.1)
  }
}
