import AlarmAudio
import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

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

extension Service {
  /// Registers the check timer and requests the buzzer line.
  func startAudioWatch() throws(SystemError) {
    try loop.register(audioWatch.timer.descriptor, interest: .readable) { [unowned self] _ in
      _ = try? self.audioWatch.timer.read()
      self.audioCheckDue()
    }
    applyBuzzer()
  }

  /// Requests the configured buzzer line (again when the config changed it); a line that
  /// cannot be requested is logged and retried at the next check.
  func applyBuzzer() {
    let w = audioWatch
    let wanted = config.audio.buzzer
    if wanted == w.buzzerConfig && (wanted == nil || w.buzzer != nil) { return }
    if w.buzzerConfig != wanted, let old = w.buzzer {
      old.close()
      w.buzzer = nil
    }
    w.buzzerConfig = wanted
    w.buzzerProblem = nil
    guard let wanted else { return }
    do {
      let line = try GpioOutputLine.open(chip: wanted.chip, line: wanted.line)
      w.buzzer = try Buzzer(line: line, loop: loop, log: { [log] in log.log($0, $1) })
      log.info("buzzer: \(line.logText) ready")
    } catch {
      w.buzzerProblem = "\(error)"
      log.error("buzzer: \(error); it cannot beep until this is fixed")
    }
  }

  /// Plans the next audio check: `checkLead` before the next firing, again every
  /// `recheckInterval` while the device is missing, up to the prepare point (which checks
  /// last). Nothing is checked while sound plays.
  func planAudioCheck(now: Instant) {
    let w = audioWatch
    var at: Instant? = nil
    if !engine.soundPlaying, let f = engine.upcoming(after: now, count: 1).first {
      if w.checkedFiring != f {
        at = max(now, f.at - AudioWatch.checkLead)
      } else if w.failing, let last = w.checkedAt {
        let next = max(now, last + AudioWatch.recheckInterval)
        if next < f.at - WakePlan.prepareLead - .seconds(1) { at = next }
      }
      if let due = at, due <= now {
        checkAudio(for: f, now: now)
        at = nil
      }
    }
    w.checkAt = at
    do throws(SystemError) {
      if let at {
        try w.timer.arm(at: .seconds(at.seconds), cancelOnClockChange: false)
      } else {
        try w.timer.disarm()
      }
    } catch {
      log.warning("audio check timer: \(error)")
    }
  }

  /// The check timer expired (tests call it after moving their clock to `checkAt`).
  func audioCheckDue() {
    planAudioCheck(now: clock.now())
  }

  /// Asks the ringer to open and close the device chain for `firing`'s alarm.
  private func checkAudio(for f: Firing, now: Instant) {
    guard let alarm = engine.alarms[f.alarmID] else { return }
    audioWatch.checkedFiring = f
    audioWatch.checkedAt = now
    // A buzzer line that could not be requested is tried again.
    applyBuzzer()
    log.debug(
      "audio: checking the devices for '\(alarm.id)' at \(ISO8601Text.format(f.at, in: zone))")
    ringer.check(
      ringRequest(
        alarm, remaining: alarm.ringFor,
        sound: ChosenSound(
          alarmID: alarm.id, firing: f.at, settings: [])))
  }

  /// What a check (or a prepare) found: logged when it changes, shown in `status`, the
  /// `audio_failed` hook once per firing, and the failover kept for the ring.
  func audioChecked(_ check: AudioCheck) {
    let w = audioWatch
    let before = w.result
    w.result = check
    let firing = w.checkedFiring ?? prepared
    if check.hasFailures {
      let missing = check.failures.map { "'\($0.device)'" }.joined(separator: ", ")
      let text = "\(missing) cannot be opened; failover: \(failoverText(check))"
      if before?.failures.map(\.device) != check.failures.map(\.device)
        || before?.device != check.device
      {
        // (The ringer has logged each failure with ALSA's reason.)
        log.warning("audio check: \(text)")
      }
      audioStatus = InputStatus(name: "audio", available: false, detail: text)
      if let firing {
        audioFailed(
          alarmID: firing.alarmID, at: firing.at, failed: check.failures.map(\.device),
          failover: check.device ?? (w.buzzer != nil ? "buzzer" : ""))
      }
    } else if let device = check.device {
      if before?.hasFailures == true {
        log.notice("audio check: '\(device)' is back")
      }
      if !engine.soundPlaying {
        audioStatus = InputStatus(name: "audio", available: true, detail: "ready on \(device)")
      }
    }
    planAudioCheck(now: clock.now())
  }

  /// The device a ring would use, or the buzzer, in words.
  func failoverText(_ check: AudioCheck) -> String {
    if let device = check.device { return device }
    if let b = audioWatch.buzzer { return "the buzzer (\(b.line.logText))" }
    return "none (no device opens and no buzzer is configured)"
  }

  /// Runs the `audio_failed` hook, once per occurrence of an alarm.
  func audioFailed(alarmID: String, at: Instant, failed: [String], failover: String) {
    let key = "\(alarmID)@\(at.seconds)"
    guard audioWatch.hookRanFor != key else { return }
    audioWatch.hookRanFor = key
    guard let argv = config.hooks.commands[.audioFailed] else { return }
    let call = HookCall(
      event: .audioFailed, alarmID: alarmID, label: engine.alarms[alarmID]?.label, firing: at)
    let text = AlarmText(DisplayLocale(environment: environment))
    var env = HookEnvironment.variables(for: call, zone: zone, defaultLabel: text.defaultLabel)
    env.merge(HookEnvironment.audioFailed(failed: failed, failover: failover)) { _, new in new }
    log.info("running the audio_failed hook")
    hooks.run(argv, environment: env, timeout: config.hooks.timeout, name: "audio_failed")
  }

  /// A ring starts: when the check found no device, the buzzer beeps at once (the ringer
  /// keeps trying the devices; the first that opens silences it).
  func ringStarting() {
    if let r = audioWatch.result, r.device == nil {
      startBuzzer(reason: "the audio check found no device")
    }
  }

  func startBuzzer(reason: String) {
    guard let b = audioWatch.buzzer else { return }
    guard !b.isSounding else { return }
    log.warning("buzzer: beeping on \(b.line.logText): \(reason)")
    b.start()
  }

  func stopBuzzer(reason: String) {
    guard let b = audioWatch.buzzer, b.isSounding else { return }
    b.stop()
    log.notice("buzzer: stopped: \(reason)")
  }

  /// The buzzer's line in `status`, when one is configured.
  var buzzerStatus: InputStatus? {
    let w = audioWatch
    guard let config = w.buzzerConfig else { return nil }
    if let b = w.buzzer {
      return InputStatus(
        name: "buzzer", available: true,
        detail: "\(b.line.logText), \(b.isSounding ? "beeping" : "silent")")
    }
    return InputStatus(
      name: "buzzer", available: false,
      detail: "\(config.chip) line \(config.line.logText): \(w.buzzerProblem ?? "not requested")")
  }
}
