import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmService

extension OfflineConfig {
  /// The config for an offline command, or nil after printing why it cannot be used.
  static func load(_ option: String?, env: [String: String]) -> OfflineConfig? {
    switch load(ConfigFile.path(option, environment: env), environment: env) {
    case .success(let loaded): return loaded
    case .failure(let error):
      for line in error.lines { printError(line) }
      return nil
    }
  }
}
