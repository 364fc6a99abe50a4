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
    self.init(.english)
  }
}
