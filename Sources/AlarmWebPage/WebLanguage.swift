import AlarmCore

/// The language of a page, chosen from the browser's `Accept-Language` header: Traditional
/// Chinese when the best-weighted Chinese or English range asks for it, else English.
public struct WebLanguage: Hashable, Sendable {
  /// The words the CLI uses (repeat summaries, times), shared with the page.
  public var locale: DisplayLocale

  /// The page's `lang` attribute: `en` or `zh-Hant-TW`.
  public var htmlLang: String { locale == .traditionalChinese ? "zh-Hant-TW" : "en" }

  /// A fixed language (tests, or a server that already knows it).
  public init(_ locale: DisplayLocale) { self.locale = locale }

  /// Parses `Accept-Language` (RFC 9110 §12.5.4): ranges with optional `;q=` weights; the
  /// highest-weighted range that is English or Chinese decides (ties: the first listed).
  /// `zh-TW`, `zh-HK`, `zh-MO`, `zh-Hant*` and a bare `zh` give Traditional Chinese;
  /// `zh-CN`, `zh-SG`, `zh-Hans*` give English (the page has no Simplified Chinese);
  /// anything else, a missing or malformed header gives English.
  public init(acceptLanguage: String?) {
    var best: (q: Double, locale: DisplayLocale)?
    for item in (acceptLanguage ?? "").split(separator: ",").prefix(32) {
      let parts = item.split(separator: ";")
      guard let first = parts.first else { continue }
      let tag = first.trimmingSpaces.lowercased()
      guard let q = Self.weight(parts.dropFirst()), q > 0, q > (best?.q ?? 0),
        let locale = Self.locale(tag)
      else { continue }
      best = (q, locale)
    }
    self.init(best?.locale ?? .english)
  }

  /// `en*` -> English, Traditional Chinese tags -> Chinese, others (incl. `*`) -> nil.
  private static func locale(_ tag: String) -> DisplayLocale? {
    let sub = tag.split(separator: "-").map(String.init)
    switch sub.first {
    case "en": return .english
    case "zh":
      let rest = sub.dropFirst()
      if rest.isEmpty { return .traditionalChinese }
      if rest.contains("hans") || rest.contains("cn") || rest.contains("sg") { return .english }
      return .traditionalChinese
    default: return nil
    }
  }

  /// The weight from a range's parameters: `q=0.8` -> 0.8, none -> 1, a malformed one -> nil.
  private static func weight(_ params: ArraySlice<Substring>) -> Double? {
    guard let p = params.map(\.trimmingSpaces).first(where: { $0.lowercased().hasPrefix("q=") })
    else { return 1 }
    guard let q = Double(p.dropFirst(2)), q >= 0, q <= 1 else { return nil }
    return q
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var s = self
    while s.first == " " || s.first == "\t" { s.removeFirst() }
    while s.last == " " || s.last == "\t" { s.removeLast() }
    return s
  }
}
