/// `[voice]`: how the device speaks (`alarmclock say-time`, a press, announcements and
/// reminders).
public struct VoiceConfig: Hashable, Sendable {
  /// `language = "en"` or `"zh_TW"`; nil: the locale's (LC_ALL, LC_MESSAGES, LANG).
  public var language: DisplayLocale?
  /// `volume`, 0-100 %, as an alarm's volume.
  public var volume: Int = 80
  /// `rate`, words per minute (espeak-ng's -s), 80-400.
  public var rate: Int = 160
  /// `quiet_hours = "22:00-07:00"`: when a reminder's due time neither chimes nor speaks
  /// (alarms and presses still speak); nil for none.
  public var quietHours: QuietHours?

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
  static let keys = ["language", "volume", "rate", "quiet_hours"]

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
    if let text = r.string("quiet_hours", maxBytes: 64), let entry = r.entry("quiet_hours") {
      if let hours = QuietHours(text) {
        voice.quietHours = hours
      } else {
        r.state.error(
          entry.node.range.start,
          "'quiet_hours' must be two times of day like \"22:00-07:00\", not \(quoted(text))")
      }
    }
    return voice
  }
}

/// A daily span of local time, `from` up to (not including) `until`; over midnight when
/// `until` is earlier (`22:00-07:00`).
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
  public var from: LocalTime
  public var until: LocalTime

  public init(from: LocalTime, until: LocalTime) {
    self.from = from
    self.until = until
  }

  /// `HH:MM-HH:MM` (seconds allowed); nil when it is not two times or they are equal.
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = AlarmDecoder.parseTime(String(parts[0])),
      let b = AlarmDecoder.parseTime(String(parts[1])), a != b
    else { return nil }
    self.init(from: a, until: b)
  }

  /// Whether `time` falls in the span.
  public func contains(_ time: LocalTime) -> Bool {
    from < until ? (from <= time && time < until) : (time >= from || time < until)
  }

  public var description: String { "\(from)-\(until)" }
}
