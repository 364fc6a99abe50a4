/// How much a log line matters (journald priorities, most severe first).
///
/// Defined here for the audio subsystem until the shared logger lands; the values mirror
/// syslog's err, warning, notice, info and debug. Ordered by severity: `.debug < .error`.
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
  case error = 3
  case warning = 4
  case notice = 5
  case info = 6
  case debug = 7

  public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue > b.rawValue }

  public var description: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .notice: "notice"
    case .info: "info"
    case .debug: "debug"
    }
  }
}

/// Where the audio code writes its log lines. Called from the playback thread.
public typealias AudioLog = @Sendable (LogLevel, String) -> Void
