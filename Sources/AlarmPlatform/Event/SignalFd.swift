#if canImport(Glibc)
  import Glibc
#endif
import CShim

/// One signal read from a `SignalFd`.
public struct SignalInfo: Sendable, Equatable {
  /// The signal number (SIGTERM, SIGHUP, ...).
  public var signal: Int32
  /// The sending process (for SIGCHLD: the child).
  public var senderPID: Int32
  /// The sender's real user id.
  public var senderUID: UInt32
  /// For SIGCHLD: the child's exit status or terminating signal (`si_status`).
  public var status: Int32
}

/// A signalfd: signals delivered as readable data to the event loop instead of handlers.
///
/// The signals must be blocked in every thread, or the kernel delivers them the default way
/// (SIGTERM would kill the process). Call `SignalFd.block(_:)` first thing in `main`, before
/// any thread exists: threads inherit the mask. Child processes inherit it too, so whoever
/// spawns hooks must reset the mask in the child (posix_spawnattr_setsigmask).
public final class SignalFd {
  /// The descriptor to register with an `EventLoop` for `.readable`.
  public let descriptor: FileDescriptor
  public let signals: [Int32]

  /// Blocks `signals` in the calling thread (and every thread it spawns later).
  public static func block(_ signals: [Int32]) throws(SystemError) {
    var set = signalSet(signals)
    let rc = pthread_sigmask(SIG_BLOCK, &set, nil)
    if rc != 0 { throw SystemError("pthread_sigmask(SIG_BLOCK)", errno: rc) }
  }

  /// Unblocks `signals` in the calling thread.
  public static func unblock(_ signals: [Int32]) throws(SystemError) {
    var set = signalSet(signals)
    let rc = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    if rc != 0 { throw SystemError("pthread_sigmask(SIG_UNBLOCK)", errno: rc) }
  }

  /// Ignores a signal process-wide (SIGPIPE: a vanished reader must give EPIPE, not death).
  public static func ignore(_ signal: Int32) {
    Glibc.signal(signal, SIG_IGN)
  }

  /// A non-blocking, close-on-exec signalfd for `signals` (which must already be blocked).
  public init(signals: [Int32]) throws(SystemError) {
    self.signals = signals
    var set = SignalFd.signalSet(signals)
    let fd = try retryingEINTR("signalfd") {
      signalfd(-1, &set, Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK))
    }
    descriptor = FileDescriptor(owning: fd)
  }

  /// Reads every pending signal; empty when none is pending.
  public func read() throws(SystemError) -> [SignalInfo] {
    var result: [SignalInfo] = []
    let fd = descriptor.rawValue
    while true {
      var info = signalfd_siginfo()
      let size = MemoryLayout<signalfd_siginfo>.size
      let n: Int
      do throws(SystemError) {
        n = try retryingEINTR("read(signalfd)") { Glibc.read(fd, &info, size) }
      } catch where error.isWouldBlock {
        return result
      }
      guard n == size else { return result }
      result.append(
        SignalInfo(
          signal: Int32(bitPattern: info.ssi_signo), senderPID: Int32(bitPattern: info.ssi_pid),
          senderUID: info.ssi_uid, status: info.ssi_status))
    }
  }

  private static func signalSet(_ signals: [Int32]) -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    return set
  }
}
