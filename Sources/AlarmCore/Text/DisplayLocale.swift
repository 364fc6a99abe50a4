/// The language `list` and `next` speak: English, or Traditional Chinese after the
/// seeds' phone app.
public enum DisplayLocale: String, Hashable, Sendable, CaseIterable {
  case english = "en"
  case traditionalChinese = "zh_TW"

  /// Chooses from a process environment the POSIX way: the first non-empty of
  /// `LC_ALL`, `LC_MESSAGES`, `LANG` decides. `zh_TW`, `zh_HK`, `zh_MO` and any
  /// `zh_Hant` / `zh-Hant` name (with or without `.UTF-8` or `@modifier`) give
  /// Traditional Chinese (unless the name says `Hans`); everything else, or nothing set,
  /// gives English.
  public init(environment: [String: String]) {
    let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty }
    self = value.map(DisplayLocale.init(localeName:)) ?? .english
  }

  /// `zh_TW.UTF-8` -> Traditional Chinese; `en_US.UTF-8`, `C`, `POSIX` -> English.
  public init(localeName: String) {
    let name = localeName.prefix { $0 != "." && $0 != "@" }.replacingOccurrences("-", "_")
    let parts = name.split(separator: "_").map { $0.lowercased() }
    guard parts.first == "zh" else {
      self = .english
      return
    }
    let rest = parts.dropFirst()
    self =
      rest.contains("hans")
      ? .english
      : rest.contains("hant") || rest.contains("tw") || rest.contains("hk")
        || rest.contains("mo") ? .traditionalChinese : .english
  }
}

extension Substring {
  fileprivate func replacingOccurrences(_ a: Character, _ b: Character) -> String {
    String(map { $0 == a ? b : $0 })
  }
}
