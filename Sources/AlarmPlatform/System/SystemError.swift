#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: which call (with its subject, e.g. `open(/etc/x)`) and the errno.
///
/// Every syscall wrapper in AlarmPlatform throws this, through `retryingEINTR`.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The call and its subject, e.g. `open(/etc/alarmclock/alarms.toml)`.
  public var call: String
  /// The `errno` value the call left.
  public var errno: Int32
  /// Replaces the `strerror` text when the error is ours, not the kernel's (e.g. a size cap).
  public var detail: String?

  public init(_ call: String, errno: Int32, detail: String? = nil) {
    self.call = call
    self.errno = errno
    self.detail = detail
  }

  /// The error for the calling thread's current `errno`.
  public static func current(_ call: String) -> SystemError {
    SystemError(call, errno: Glibc.errno)
  }

  /// `open(/etc/x): Permission denied (errno 13)`.
  public var description: String {
    "\(call): \(detail ?? SystemError.message(for: errno)) (errno \(errno))"
  }

  /// True for EAGAIN/EWOULDBLOCK: a non-blocking fd has nothing to give or take now.
  public var isWouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

  /// The C library's text for an errno value.
  public static func message(for errno: Int32) -> String {
    guard let text = strerror(errno) else { return "Unknown error" }
    return String(cString: text)
  }
}

/// Runs a syscall until it does not fail with EINTR; throws `SystemError(name, errno)` when it
/// returns -1 for any other reason. The one place that interprets syscall results, for calls
/// returning `int` (open, ioctl, ...) and `ssize_t` (read, write, send, recv) alike.
@discardableResult
public func retryingEINTR<Result: FixedWidthInteger & SignedInteger>(
  _ name: @autoclosure () -> String, _ body: () -> Result
) throws(SystemError) -> Result {
  while true {
    let result = body()
    if result != -1 { return result }
    let code = errno
    if code == EINTR { continue }
    throw SystemError(name(), errno: code)
  }
}
