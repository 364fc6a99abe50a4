import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// A timerfd: a timer that makes its descriptor readable when it expires.
///
/// Every engine deadline (a firing, a snooze's end, `ring_for`'s end) goes on one
/// `.realtime` timer armed at an absolute wall-clock instant with cancel-on-set, so a
/// clock change (NTP at boot, `date -s`) wakes the loop with `.clockChanged` and the
/// schedule is recomputed. Hook timeouts, the state-file retry and the systemd watchdog
/// use relative `.monotonic` timers; press timing arms `.monotonic` deadlines.
public final class TimerFd: Sendable {
  /// The clock a timer runs on: the module's one `Clock` (this name stays for the callers
  /// that spell it `TimerFd.Clock`).
  public typealias Clock = AlarmPlatform.Clock

  /// What reading a readable timer reports.
  public enum Expiry: Sendable, Equatable {
    /// The timer fired this many times since the last read (1 unless it repeats).
    case expired(UInt64)
    /// CLOCK_REALTIME was set while a cancel-on-set timer was armed; the timer is cancelled
    /// and must be re-armed for the recomputed deadline.
    case clockChanged
  }

  /// The clock the timer runs on.
  public let clock: Clock
  /// The descriptor to register with an `EventLoop` for `.readable`.
  public let descriptor: FileDescriptor

  /// A non-blocking, close-on-exec timer on `clock`, initially disarmed.
  public init(clock: Clock) throws(SystemError) {
    self.clock = clock
    let id = clock.id
    let fd = try retryingEINTR("timerfd_create") {
      timerfd_create(id, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
    }
    descriptor = FileDescriptor(owning: fd)
  }

  /// Fires once when the clock reads `deadline` (time since the clock's epoch; for
  /// `.realtime`, since 1970-01-01 UTC). A deadline already past fires at once.
  /// `cancelOnClockChange` (realtime only) turns a clock change into `.clockChanged`.
  public func arm(at deadline: Duration, cancelOnClockChange: Bool = true) throws(SystemError) {
    var flags = Int32(TFD_TIMER_ABSTIME)
    if cancelOnClockChange && clock == .realtime { flags |= Int32(TFD_TIMER_CANCEL_ON_SET) }
    // An all-zero it_value would disarm instead of firing at once.
    let value = deadline > .zero ? deadline : .nanoseconds(1)
    try set(flags: flags, value: value, interval: .zero)
  }

  /// Fires after `delay` (at once if it is zero or negative), then every `interval` if given.
  public func arm(after delay: Duration, repeating interval: Duration? = nil)
    throws(SystemError)
  {
    let value = delay > .zero ? delay : .nanoseconds(1)
    let period = interval.map { $0 > .zero ? $0 : .nanoseconds(1) } ?? .zero
    try set(flags: 0, value: value, interval: period)
  }

  /// Stops the timer; a pending expiry that was not read yet is discarded.
  public func disarm() throws(SystemError) {
    try set(flags: 0, value: .zero, interval: .zero)
  }

  /// Reads the expiry; nil when the timer has not expired (a spurious wake-up).
  public func read() throws(SystemError) -> Expiry? {
    var count: UInt64 = 0
    let fd = descriptor.rawValue
    let n: Int
    do throws(SystemError) {
      n = try retryingEINTR("read(timerfd)") { Glibc.read(fd, &count, 8) }
    } catch {
      return try TimerFd.interpretRead(result: -1, errno: error.errno, count: 0)
    }
    return try TimerFd.interpretRead(result: n, errno: 0, count: count)
  }

  /// The meaning of a timerfd read(2) result: ECANCELED is a clock change, EAGAIN nothing yet.
  /// (Separate so the clock-change path is testable without setting the machine's clock.)
  public static func interpretRead(result: Int, errno code: Int32, count: UInt64)
    throws(SystemError) -> Expiry?
  {
    if result == 8 { return .expired(count) }
    if result >= 0 { throw SystemError("read(timerfd)", errno: EIO, detail: "short read") }
    switch code {
    case ECANCELED: return .clockChanged
    case EAGAIN, EWOULDBLOCK, EINTR: return nil
    default: throw SystemError("read(timerfd)", errno: code)
    }
  }

  private func set(flags: Int32, value: Duration, interval: Duration) throws(SystemError) {
    var spec = itimerspec(
      it_interval: TimerFd.makeTimespec(interval), it_value: TimerFd.makeTimespec(value))
    let fd = descriptor.rawValue
    try retryingEINTR("timerfd_settime") { timerfd_settime(fd, flags, &spec, nil) }
  }

  static func makeTimespec(_ d: Duration) -> Glibc.timespec {
    let (seconds, attoseconds) = d.components
    return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
  }
}
