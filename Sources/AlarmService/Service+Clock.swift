import AlarmCore
import AlarmPlatform

/// What the service saw of the wall clock, for the log and `status`.
struct ClockWatch {
  /// The last synchronisation state read (nil: unknown).
  var synchronized: Bool?
  /// When the clock was seen to become synchronised while the service ran.
  var synchronizedAt: Instant?
  /// How far the clock jumped when it was last set.
  var lastJump: Duration?
  /// A wall-clock reading and the monotonic clock at that moment: a later clock change
  /// jumped by how much more the wall clock moved than the monotonic one.
  var reference: (realtime: Instant, monotonic: Duration)?
}

/// Clock trust: the clock is read against the monotonic clock to measure jumps, and the
/// synchronisation flag is read again at every timer expiry, clock change and `status`.
extension Service {
  /// Reads the synchronisation state, logs a change, and takes a new jump reference.
  /// `starting`: the first look, which also warns of an obviously wrong clock.
  func watchClock(now: Instant, starting: Bool = false) {
    let synchronized = ClockSync.isSynchronized(
      timesyncDirectory: options.timesyncDirectory, kernel: options.kernelClockState)
    if starting {
      if !ClockTrust.isPlausible(now) {
        log.warning(
          "the clock says \(ISO8601Text.format(now, in: zone)), before this alarmclock was "
            + "released (\(AlarmclockVersion.releaseDate)): it is wrong until it is set")
      }
      if synchronized == false { log.notice("the clock is not synchronised yet") }
    } else if synchronized != clockWatch.synchronized {
      switch synchronized {
      case true?:
        log.notice("the clock is now synchronised")
        clockWatch.synchronizedAt = now
      case false?: log.warning("the clock is no longer synchronised")
      case nil: log.info("the clock's synchronisation is no longer known")
      }
    }
    clockWatch.synchronized = synchronized
    clockWatch.reference = (now, Clock.boottime.now())
  }

  /// How far the wall clock jumped since the last reference: what it moved beyond the
  /// monotonic clock. nil before the first reference.
  func clockJump(now: Instant) -> Duration? {
    guard let ref = clockWatch.reference else { return nil }
    return (now - ref.realtime) - (Clock.boottime.now() - ref.monotonic)
  }
}
