#if canImport(Glibc)
  import Glibc
#endif
import CShim

/// An eventfd: a counter other threads bump with `signal()` to wake an epoll loop.
public final class EventFd: Sendable {
  /// The descriptor to register with an `EventLoop` (readable while signalled).
  public let descriptor: FileDescriptor

  /// A non-blocking, close-on-exec eventfd starting at 0.
  public init() throws(SystemError) {
    let fd = try retryingEINTR("eventfd") {
      eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    }
    descriptor = FileDescriptor(owning: fd)
  }

  /// Adds 1 to the counter, waking whoever waits on it. Safe from any thread; never blocks.
  public func signal() {
    var one: UInt64 = 1
    let fd = descriptor.rawValue
    // Only a counter at UInt64.max - 1 could fail (EAGAIN); it is then readable anyway.
    _ = try? retryingEINTR("write(eventfd)") { Glibc.write(fd, &one, 8) }
  }

  /// Reads and resets the counter: how many signals arrived (0 if none).
  @discardableResult
  public func drain() -> UInt64 {
    var value: UInt64 = 0
    let fd = descriptor.rawValue
    do {
      try retryingEINTR("read(eventfd)") { Glibc.read(fd, &value, 8) }
    } catch {
      return 0
    }
    return value
  }
}
