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

  /// The file's bytes; empty when it does not exist yet; or a one-line reason.
  public static func read(_ path: String) -> Result<[UInt8], ConfigFileError> {
    guard FileSystem.exists(path) else { return .success([]) }
    return ConfigFile.read(path, limit: maxBytes, tooLarge: "a reminder list is at most 4 MiB")
      .mapError { ConfigFileError("\(path): \($0)") }
  }
}
