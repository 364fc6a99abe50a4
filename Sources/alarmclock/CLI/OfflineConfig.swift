import AlarmCore

/// A usable config for the offline commands, or nil after printing why not.
struct OfflineConfig {
  var config: Config
  var zone: TimeZoneRules

  static func load(_ option: String?, env: [String: String]) -> OfflineConfig? {
    let path = ConfigFile.path(option, environment: env)
    switch ConfigFile.load(path, environment: env, today: nil) {
    case .failure(let reason):
      printError(reason.description)
      return nil
    case .success(let loaded):
      guard let config = loaded.config else {
        for m in loaded.messages { printError(m) }
        printError("\(path) has errors; run 'alarmclock check' after fixing them")
        return nil
      }
      return OfflineConfig(config: config, zone: loaded.zone)
    }
  }
}

/// Minimal JSON text building for the CLI's --json output.
enum JSONText {
  static func string(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where u.value < 0x20:
        let hex = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(u)
      }
    }
    return out + "\""
  }

  /// An object from (key, already-encoded value) pairs, in order.
  static func object(_ pairs: [(String, String)]) -> String {
    "{" + pairs.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
}
