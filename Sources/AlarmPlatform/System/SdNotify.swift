#if canImport(Glibc)
  import Glibc
#endif

/// The systemd notify protocol: state lines sent as datagrams to `$NOTIFY_SOCKET`.
///
/// Without NOTIFY_SOCKET (not started by systemd with Type=notify) `init` returns nil
/// and the service simply does not notify.
public final class SdNotify: Sendable {
  /// Where notifications go.
  public let address: UnixSocketAddress
  private let socket: FileDescriptor

  /// Nil when `NOTIFY_SOCKET` is unset or empty; throws if it is unusable.
  public init?(environment: Environment = .current()) throws(SystemError) {
    guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
    address = try UnixSocketAddress(path)
    socket = try FileDescriptor.unixSocket(SOCK_DGRAM_VALUE)
  }

  /// Sends raw state assignments, e.g. `READY=1\nSTATUS=...`.
  public func send(_ state: String) throws(SystemError) {
    try socket.send(Array(state.utf8), to: address)
  }

  /// The service is up: config, state and control socket are ready.
  public func ready(status: String? = nil) throws(SystemError) {
    try send(status.map { "READY=1\nSTATUS=\(SdNotify.oneLine($0))" } ?? "READY=1")
  }

  /// A one-line status shown by `systemctl status`.
  public func status(_ text: String) throws(SystemError) {
    try send("STATUS=\(SdNotify.oneLine(text))")
  }

  /// The watchdog keep-alive; send every `watchdogInterval`.
  public func watchdog() throws(SystemError) { try send("WATCHDOG=1") }

  /// The service is shutting down.
  public func stopping() throws(SystemError) { try send("STOPPING=1") }

  /// How often to send WATCHDOG=1: half of `WATCHDOG_USEC`, or nil when the watchdog is off
  /// or meant for another process (`WATCHDOG_PID` set and not `pid`).
  public static func watchdogInterval(
    environment: Environment = .current(), pid: Int32 = getpid()
  ) -> Duration? {
    guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else {
      return nil
    }
    if let pidText = environment["WATCHDOG_PID"], !pidText.isEmpty {
      guard let owner = Int32(pidText), owner == pid else { return nil }
    }
    return .microseconds(Int64(clamping: usec / 2))
  }

  // A newline would start a new assignment in the protocol.
  private static func oneLine(_ text: String) -> String {
    String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}

/// SOCK_DGRAM as the Int32 socket(2) takes (Glibc imports it as an enum).
let SOCK_DGRAM_VALUE = Int32(SOCK_DGRAM.rawValue)
/// SOCK_STREAM as the Int32 socket(2) takes.
let SOCK_STREAM_VALUE = Int32(SOCK_STREAM.rawValue)
