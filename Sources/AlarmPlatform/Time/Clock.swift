#if canImport(Glibc)
  import Glibc
#endif

/// The system clocks, and the one way AlarmPlatform and the CLI read them.
///
/// Readings are `Duration`s since the clock's epoch, so they subtract and compare without
/// conversions; timers (`TimerFd`) and ring deadlines (`RingDeadline`) name their clock
/// with this type too.
public enum Clock: Sendable, Hashable {
  /// CLOCK_REALTIME: wall-clock time since 1970-01-01 UTC; jumps when the clock is set.
  case realtime
  /// CLOCK_MONOTONIC: time since boot, never jumps, stops during suspend.
  case monotonic
  /// CLOCK_BOOTTIME: like monotonic, but keeps counting during suspend.
  case boottime

  /// The kernel's id for this clock.
  public var id: clockid_t {
    switch self {
    case .realtime: CLOCK_REALTIME
    case .monotonic: CLOCK_MONOTONIC
    case .boottime: CLOCK_BOOTTIME
    }
  }

  /// The clock's current reading, as time since its epoch.
  public func now() -> Duration {
    var ts = timespec()
    // Cannot fail for these clock ids with a valid pointer.
    clock_gettime(id, &ts)
    return .seconds(Int64(ts.tv_sec)) + .nanoseconds(Int64(ts.tv_nsec))
  }

  /// Time elapsed on this clock since `start` (a reading of the same clock).
  public func since(_ start: Duration) -> Duration { now() - start }
}

extension Duration {
  /// The duration in seconds, as a Double (for poll timeouts and log lines).
  public var secondsDouble: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// Whole milliseconds, rounded up and clamped to poll(2)'s Int32 timeout (0 if negative).
  public var pollTimeout: Int32 {
    guard self > .zero else { return 0 }
    return Int32(clamping: Int64(secondsDouble * 1000) + 1)
  }
}
