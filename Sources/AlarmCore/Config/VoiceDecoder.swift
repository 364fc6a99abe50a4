/// `[voice]`: how the device speaks (`alarmclock say-time`, and later announcements).
public struct VoiceConfig: Hashable, Sendable {
  /// `language = "en"` or `"zh_TW"`; nil: the locale's (LC_ALL, LC_MESSAGES, LANG).
  public var language: DisplayLocale?
  /// `volume`, 0-100 %, as an alarm's volume.
  public var volume: Int = 80
  /// `rate`, words per minute (espeak-ng's -s), 80-400.
  public var rate: Int = 160

  public init(language: DisplayLocale? = nil, volume: Int = 80, rate: Int = 160) {
    self.language = language
    self.volume = volume
    self.rate = rate
  }

  /// The language spoken: `language`, else the environment's locale.
  public func locale(environment: [String: String]) -> DisplayLocale {
    language ?? DisplayLocale(environment: environment)
  }
}

enum VoiceDecoder {
  static let keys = ["language", "volume", "rate"]

  static func decode(_ r: TableReader) -> VoiceConfig {
    var voice = VoiceConfig()
    if let entry = r.entry("language") {
      let names = DisplayLocale.allCases.map(\.rawValue)
      if case .string(let text) = entry.node.value, let locale = DisplayLocale(rawValue: text) {
        voice.language = locale
      } else if case .string(let text) = entry.node.value {
        var message = "'language' must be \(listing(names.map(quoted))), not \(quoted(text))"
        if let guess = Suggestion.closest(to: text, in: names) {
          message += "; did you mean \(quoted(guess))?"
        }
        r.state.error(entry.node.range.start, message)
      } else {
        r.mismatch(entry, listing(names.map(quoted)))
      }
    }
    if let volume = r.integer("volume", in: 0...100) { voice.volume = Int(volume) }
    if let rate = r.integer("rate", in: 80...400) { voice.rate = Int(rate) }
    return voice
  }
}
