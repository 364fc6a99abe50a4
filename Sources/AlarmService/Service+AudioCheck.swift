import AlarmAudio
import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

extension Service {
  /// Registers the check timer and requests the buzzer line.
  func startAudioWatch() throws(SystemError) {
    try loop.register(ring.watch.timer.descriptor, interest: .readable) { [unowned self] _ in
      _ = try? self.ring.watch.timer.read()
      self.audioCheckDue()
    }
    applyBuzzer()
  }

  /// Requests the configured buzzer line (again when the config changed it).
  func applyBuzzer() { ring.applyBuzzer(config.audio.buzzer, loop: loop) }

  /// Plans the next audio check: `checkLead` before the next firing, again every
  /// `recheckInterval` while the device is missing, up to the prepare point (which checks
  /// last). Nothing is checked while sound plays.
  func planAudioCheck(now: Instant) {
    let w = ring.watch
    var at: Instant? = nil
    if !engine.soundPlaying, let f = engine.upcoming(after: now, count: 1).first {
      if w.checkedFiring != f {
        at = max(now, f.at - AudioWatch.checkLead)
      } else if w.failing, let last = w.checkedAt {
        let next = max(now, last + AudioWatch.recheckInterval)
        let lead = engine.prepareLead(for: f, streamLead: config.audio.streamLead)
        if next < f.at - lead - .seconds(1) { at = next }
      }
      if let due = at, due <= now {
        checkAudio(for: f, now: now)
        at = nil
      }
    }
    ring.armCheck(at: at)
  }

  /// The check timer expired (tests call it after moving their clock to `checkAt`).
  func audioCheckDue() {
    planAudioCheck(now: clock.now())
  }

  /// Asks the ringer to open and close the device chain for `firing`'s alarm.
  private func checkAudio(for f: Firing, now: Instant) {
    guard let alarm = engine.alarms[f.alarmID] else { return }
    // A buzzer line that could not be requested is tried again.
    applyBuzzer()
    log.debug(
      "audio: checking the devices for '\(alarm.id)' at \(ISO8601Text.format(f.at, in: zone))")
    let sound = ChosenSound(alarmID: alarm.id, firing: f.at, settings: [])
    ring.check(f, request: ringRequest(alarm, remaining: alarm.ringFor, sound: sound), now: now)
  }

  /// What a check (or a prepare) found: logged when it changes, shown in `status`, the
  /// `audio_failed` hook once per firing, and the failover kept for the ring.
  func audioChecked(_ check: AudioCheck) {
    let firing = ring.watch.checkedFiring ?? ring.prepared
    ring.checked(check, failover: failoverText(check), soundPlaying: engine.soundPlaying)
    if check.hasFailures, let firing {
      audioFailed(
        alarmID: firing.alarmID, at: firing.at, failed: check.failures.map(\.device),
        failover: check.device ?? (ring.watch.buzzer != nil ? "buzzer" : ""))
    }
    planAudioCheck(now: clock.now())
  }

  /// The device a ring would use, or the buzzer, in words.
  func failoverText(_ check: AudioCheck) -> String {
    if let device = check.device { return device }
    if let b = ring.watch.buzzer { return "the buzzer (\(b.line.logText))" }
    return "none (no device opens and no buzzer is configured)"
  }

  /// Runs the `audio_failed` hook, once per occurrence of an alarm.
  func audioFailed(alarmID: String, at: Instant, failed: [String], failover: String) {
    guard ring.firstAudioFailure(alarmID: alarmID, at: at) else { return }
    guard let argv = config.hooks.commands[.audioFailed] else { return }
    let call = HookCall(
      event: .audioFailed, alarmID: alarmID, label: engine.alarms[alarmID]?.label, firing: at)
    let text = AlarmText(DisplayLocale(environment: environment))
    var env = HookEnvironment.variables(for: call, zone: zone, defaultLabel: text.defaultLabel)
    env.merge(HookEnvironment.audioFailed(failed: failed, failover: failover)) { _, new in new }
    log.info("running the audio_failed hook")
    hooks.run(argv, environment: env, timeout: config.hooks.timeout, name: "audio_failed")
  }
}
