import AlarmAudio
import AlarmCore
import AlarmPlatform

/// The audio path's watch: the check a minute before each alarm, what it found, and the
/// buzzer that beeps when no device opens.
final class AudioWatch {
  /// How long before a firing the devices are checked.
  static let checkLead: Duration = .seconds(60)
  /// While the configured device is missing, how often it is checked again before the ring.
  static let recheckInterval: Duration = .seconds(15)

  /// CLOCK_REALTIME, armed at the next check (absolute, like the alarm timer).
  let timer: TimerFd
  /// When the timer is armed to check (nil: disarmed).
  var checkAt: Instant?
  /// The firing the last check was sent for, and when.
  var checkedFiring: Firing?
  var checkedAt: Instant?
  /// What the last check (or prepare) found; nil before the first.
  var result: AudioCheck?
  /// The occurrence (alarm id and instant) whose `audio_failed` hook has run: once each.
  var hookRanFor: String?
  /// The buzzer as configured, and its line once requested.
  var buzzerConfig: BuzzerConfig?
  var buzzer: Buzzer?
  /// Why the buzzer line could not be requested (shown in `status`).
  var buzzerProblem: String?

  init() throws(SystemError) { timer = try TimerFd(clock: .realtime) }

  /// Whether the last check found a device before the failover missing.
  var failing: Bool { result?.hasFailures ?? false }
}
