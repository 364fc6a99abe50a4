import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Reading the reminder list (`reminders.toml` beside the config) for the service, the CLI
/// and the web process alike. A list not yet written is an empty list.
public enum ReminderFile {
  /// Files larger than this are refused unread: 1,000 reminders with notes fit in far less.
  public static let maxBytes = 4 << 20

  /// The list that belongs to the config at `configPath`.
  public static func path(forConfig configPath: String) -> String {
    ReminderList.path(forConfig: configPath)
  }

  /// The file's bytes; empty when it does not exist yet; or a one-line reason.
  public static func read(_ path: String) -> Result<[UInt8], ConfigFileError> {
    guard FileSystem.exists(path) else { return .success([]) }
    return ConfigFile.read(path, limit: maxBytes, tooLarge: "a reminder list is at most 4 MiB")
      .mapError { ConfigFileError("\(path): \($0)") }
  }

  /// Reads and decodes the list: its diagnostics when it has errors.
  public static func load(_ path: String) -> Result<ReminderListResult, ConfigFileError> {
    read(path).flatMap { bytes in
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(ConfigFileError("\(path): not UTF-8 text"))
      }
      return .success(ReminderDecoder.decode(text, path: path))
    }
  }
}
