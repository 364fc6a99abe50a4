import AlarmCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes log lines to stderr (or any fd). Under journald (JOURNAL_STREAM names this fd)
/// each line gets a `<N>` priority prefix; otherwise `level: ` for people reading a terminal.
/// Thread-safe: each message goes out in one write(2), under a lock.
public final class Logger: Sendable {
  /// Messages less severe than this are dropped.
  public let minimumLevel: LogLevel
  /// True when lines carry `<N>` prefixes for journald.
  public let usesPriorityPrefixes: Bool
  private let fd: Int32
  private let lock = Locked(())

  /// A logger on `fd` (default stderr). Prefixes are used only if JOURNAL_STREAM's
  /// `device:inode` is this fd's, so a redirected stderr gets plain lines.
  public init(
    fd: Int32 = 2, environment: Environment = .current(), minimumLevel: LogLevel = .info
  ) {
    self.fd = fd
    self.minimumLevel = minimumLevel
    self.usesPriorityPrefixes = Logger.isJournalStream(fd: fd, environment: environment)
  }

  /// Logs `message`; each of its lines becomes one log line.
  public func log(_ level: LogLevel, _ message: String) {
    guard level <= minimumLevel else { return }
    let bytes = Array(format(level, message).utf8)
    lock.withLock { _ in
      // Nowhere to report a failing log; never block or crash on it.
      try? FileDescriptor.writeAll(bytes, toRaw: fd)
    }
  }

  public func error(_ message: String) { log(.error, message) }
  public func warning(_ message: String) { log(.warning, message) }
  public func notice(_ message: String) { log(.notice, message) }
  public func info(_ message: String) { log(.info, message) }
  public func debug(_ message: String) { log(.debug, message) }

  /// The text written for one message, newline-terminated.
  public func format(_ level: LogLevel, _ message: String) -> String {
    let prefix = usesPriorityPrefixes ? "<\(level.syslogPriority)>" : "\(level): "
    var out = ""
    for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
      out += prefix + line + "\n"
    }
    return out
  }

  /// True when JOURNAL_STREAM is `device:inode` of `fd`.
  public static func isJournalStream(fd: Int32, environment: Environment) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else {
      return false
    }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return false }
    return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
  }
}
