import AlarmAudio
import AlarmCore
import AlarmPlatform

/// The ring's one owner, in the spirit of MPD's `PlayerControl`: the ringer and all that
/// lives for one ring: the prepared firing, the session's sound, escalation, the wait for
/// the first frame, what the audio side last said, the device check and the buzzer.
///
/// The service decides when (the engine's actions, the timer, the config, the clock); only
/// this object changes the ring's state, through the transitions below, so a ring cannot be
/// half-prepared or keep an old sound by a forgotten assignment somewhere else.
final class RingCoordinator {
  /// What is left for the service after a ringer event (it needs the config and the hooks).
  enum FollowUp {
    /// No device opened: the `audio_failed` hook, once per occurrence, when a session is on.
    case audioFailed(devices: [String])
    /// A device check's result, to judge against the next firing (`checked`); the device
    /// was opened for it, so alsa-lib's code is mapped again.
    case checked(AudioCheck)
    /// The ring period's sound has started (its first frame reached ALSA): announcements
    /// count from here.
    case started
    /// A stream sound's fallback rings instead of it: the `audio_failed` hook, once per
    /// occurrence.
    case streamFailed(url: String, reason: String)
  }

  /// The playback thread's owner.
  let ringer: Ringer
  /// The device check before each alarm, what it found, and the buzzer.
  let watch: AudioWatch
  private let log: Logger
  /// The firing the ringer was prepared for, so it is prepared once.
  private(set) var prepared: Firing?
  /// The sound chosen for the prepared or current ring session.
  private(set) var chosen: ChosenSound?
  /// Whether the current ring period has escalated (`escalate_after`).
  private(set) var escalated = false
  /// The instant whose first frame is awaited, to log how late it came.
  private var firstFrameDue: Instant?
  /// The last thing the audio side reported, for `status`.
  private(set) var audioStatus = InputStatus(name: "audio", available: true, detail: "idle")

  init(ringer: Ringer, watch: AudioWatch, log: Logger) {
    self.ringer = ringer
    self.watch = watch
    self.log = log
  }

  // MARK: Transitions

  /// Drops the prepared ring: the firings may have changed under it (a new config, new
  /// days off, the clock set). The next plan prepares again.
  func invalidate() { prepared = nil }

  /// Opens `sound` ahead of `firing` (`request` says how), so the ring starts on time.
  func prepare(_ firing: Firing, sound: ChosenSound, request: RingRequest) {
    prepared = firing
    chosen = sound
    ringer.prepare(request)
  }

  /// Keeps `sound` as the session's: chosen when a ring starts that nothing prepared.
  func keep(_ sound: ChosenSound) { chosen = sound }

  /// A ring period starts (a firing, or a snooze's end): un-escalated, its first frame
  /// awaited against `firstFrameDue` (nil: a resumed ring, which the engine logs). When
  /// the last check found no device, the buzzer beeps at once; the ringer keeps trying the
  /// devices and the first that opens silences it.
  func start(_ request: RingRequest, firstFrameDue: Instant?) {
    self.firstFrameDue = firstFrameDue
    prepared = nil
    escalated = false
    ringer.start(request)
    if let r = watch.result, r.device == nil {
      startBuzzer(reason: "the audio check found no device")
    }
  }

  /// Says `clip` over the ring going on (`[voice] volume` `percent`).
  func announce(_ clip: SpeechClip, percent: Int) { ringer.announce(clip, percent: percent) }

  /// The ring period ends (snooze, stop, its time up).
  func stop() {
    firstFrameDue = nil
    escalated = false
    ringer.stop()
    stopBuzzer(reason: "the ring ended")
  }

  /// Checks the device chain for `firing` with `request` (a minute before it, and again
  /// while a device is missing).
  func check(_ firing: Firing, request: RingRequest, now: Instant) {
    watch.checkedFiring = firing
    watch.checkedAt = now
    ringer.check(request)
  }

  /// The devices may have changed (a new config): check them again before the next alarm.
  func forgetCheck() { watch.checkedFiring = nil }

  /// Arms the check timer at `at` (nil: disarms it).
  func armCheck(at: Instant?) {
    watch.checkAt = at
    do throws(SystemError) {
      if let at {
        try watch.timer.arm(at: .seconds(at.seconds), cancelOnClockChange: false)
      } else {
        try watch.timer.disarm()
      }
    } catch {
      log.warning("audio check timer: \(error)")
    }
  }

  /// True the first time an audio failure of this occurrence is reported: its
  /// `audio_failed` hook runs once.
  func firstAudioFailure(alarmID: String, at: Instant) -> Bool {
    let key = "\(alarmID)@\(at.seconds)"
    guard watch.hookRanFor != key else { return false }
    watch.hookRanFor = key
    return true
  }

  /// Stops everything for good (the service ends).
  func shutDown() {
    ringer.stop()
    watch.buzzer?.close()
  }

  // MARK: Events

  /// A ringer event, on the loop thread. `soundPlaying`: whether the engine still has a
  /// ring sounding (an event may arrive after a stop or snooze).
  func handle(_ event: RingerEvent, soundPlaying: Bool) -> FollowUp? {
    switch event {
    case .firstFrame(let device, let realtime):
      if let due = firstFrameDue {
        let late = realtime - .seconds(due.seconds)
        log.info(
          "first frame on \(device) \(DurationText.milliseconds(late)) after the scheduled time")
      }
      firstFrameDue = nil
      audioStatus = InputStatus(name: "audio", available: true, detail: "playing on \(device)")
      return .started
    case .announced:
      log.debug("announcement: mixed in over the ring")
    case .fallbackTone(let error):
      log.warning("audio: \(error); ringing the fallback tone")
      chosen?.problem = error
    case .deviceFailed(let error):
      // While the buzzer beeps, status keeps saying why (no device at all).
      if watch.buzzer?.isSounding != true {
        audioStatus = InputStatus(name: "audio", available: false, detail: "\(error)")
      }
    case .deviceOpened(let device, let isFallback):
      if isFallback { log.warning("audio: playing on the fallback device \(device)") }
      watch.result?.device = device
      stopBuzzer(reason: "playing on \(device)")
    case .deviceReopened(let device):
      log.notice("audio: \(device) is back; the ring goes on")
      audioStatus = InputStatus(name: "audio", available: true, detail: "playing on \(device)")
      watch.result?.device = device
      stopBuzzer(reason: "playing on \(device)")
    case .noDevice(let devices):
      let text = "no audio device could be opened (tried \(devices.joined(separator: ", ")))"
      log.error("audio: \(text); retrying")
      let buzzing = watch.buzzer != nil ? "; beeping the buzzer" : ""
      audioStatus = InputStatus(name: "audio", available: false, detail: text + buzzing)
      if soundPlaying { startBuzzer(reason: "no audio device opens") }
      return .audioFailed(devices: devices)
    case .checked(let check):
      return .checked(check)
    case .mixerFailed(let error):
      log.warning("audio: mixer: \(error)")
    case .streamPlaying(let url):
      if chosen?.streamProblem != nil { log.notice("stream \(url) is back; it rings again") }
      chosen?.streamProblem = nil
    case .streamFallback(let url, let reason):
      // Only a switch says "ringing"; a later attempt's reason is an update, so the
      // journal's "ringing the fallback sound" lines are the times the stream gave way.
      let already = chosen?.streamProblem != nil
      let what = already ? "the fallback sound rings on" : "ringing the fallback sound"
      log.warning("stream \(url): \(reason); \(what)")
      chosen?.streamProblem = reason
      return .streamFailed(url: url, reason: reason)
    case .escalated(let sound):
      escalated = true
      let volume = chosen?.escalation.map { " to \($0.volume) %" } ?? ""
      log.notice(
        "the alarm is escalating: volume rising\(volume)" + (sound.map { ", sound \($0)" } ?? ""))
    case .stopped:
      stopBuzzer(reason: "the ring ended")
      if audioStatus.available {
        audioStatus = InputStatus(name: "audio", available: true, detail: "idle")
      }
    }
    return nil
  }

  /// Records what a device check found, for `status` (`failover`: what a ring would use).
  func checked(_ check: AudioCheck, failover: String, soundPlaying: Bool) {
    let before = watch.result
    watch.result = check
    if check.hasFailures {
      let missing = check.failures.map { "'\($0.device)'" }.joined(separator: ", ")
      let text = "\(missing) cannot be opened; failover: \(failover)"
      if before?.failures.map(\.device) != check.failures.map(\.device)
        || before?.device != check.device
      {
        // (The ringer has logged each failure with ALSA's reason.)
        log.warning("audio check: \(text)")
      }
      audioStatus = InputStatus(name: "audio", available: false, detail: text)
    } else if let device = check.device {
      if before?.hasFailures == true {
        log.notice("audio check: '\(device)' is back")
      }
      if !soundPlaying {
        audioStatus = InputStatus(name: "audio", available: true, detail: "ready on \(device)")
      }
    }
  }

  // MARK: Status

  /// The session's sound for `status` (`firing`: the session's occurrence).
  func sessionSound(_ session: SessionStatus, firing: Instant?) -> SessionStatus {
    var s = session
    guard let c = chosen, c.alarmID == s.id, firing == c.firing else { return s }
    s.sound = c.path ?? c.stream.map { StreamURL.redacted($0.url) }
    s.soundProblem =
      c.streamProblem.map { "stream: \($0); ringing the fallback sound" } ?? c.problem?.description
    if c.escalation != nil { s.escalated = escalated }
    return s
  }

  // MARK: Buzzer

  /// Requests the buzzer line `wanted` (again when the config changed it); a line that
  /// cannot be requested is logged and retried at the next check.
  func applyBuzzer(_ wanted: BuzzerConfig?, loop: EventLoop) {
    let w = watch
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

  /// The buzzer's line in `status`, when one is configured.
  var buzzerStatus: InputStatus? {
    let w = watch
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

  func startBuzzer(reason: String) {
    guard let b = watch.buzzer, !b.isSounding else { return }
    log.warning("buzzer: beeping on \(b.line.logText): \(reason)")
    b.start()
  }

  func stopBuzzer(reason: String) {
    guard let b = watch.buzzer, b.isSounding else { return }
    b.stop()
    log.notice("buzzer: stopped: \(reason)")
  }
}
