import AlarmAudio
import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Carrying out what the engine decides: sound, hooks, log lines, the state file.
extension Service {
  /// The one way the engine's answers take effect: performs `actions`, drops the prepared
  /// ring when the firings may have changed under it (`invalidate`: a new config, new
  /// days off), and re-arms the timer from the new plan.
  func settle(_ actions: [EngineAction], now: Instant, invalidate: Bool = false) {
    perform(actions)
    if invalidate { prepared = nil }
    rearm(now: now)
  }

  func perform(_ actions: [EngineAction]) {
    var save = false
    for action in actions {
      switch action {
      case .startSound(let alarm, let remaining, let resumed):
        startSound(alarm, remaining: remaining, resumed: resumed)
      case .stopSound:
        awaitingFirstFrame = nil
        ringEscalated = false
        ringer.stop()
        stopBuzzer(reason: "the ring ended")
        releasePagesSoon()
      case .hook(let call):
        runHook(call)
      case .log(let level, let text):
        log.log(level, text)
      case .saveState:
        save = true
      }
    }
    // After the sound: a slow disk must not delay the ring.
    if save { saver.save(engine.state) }
  }

  private func startSound(_ alarm: Alarm, remaining: Duration, resumed: Bool) {
    let now = clock.now()
    // The first frame is logged against the scheduled instant (a firing or a snooze's
    // end), late starts too: how late the sound came is what the log is for. Instants
    // carry milliseconds, so `now` is a moment after the period's start, never equal.
    if let s = engine.state.session, !resumed, now >= s.periodStart {
      awaitingFirstFrame = s.periodStart
    } else {
      awaitingFirstFrame = nil
    }
    // (A resumed ring is logged by the engine, which knows what is left in words.)
    prepared = nil
    // Each ring period (after a snooze too) starts un-escalated: the ringer counts anew.
    ringEscalated = false
    let sound = soundForSession(alarm, now: now)
    ringer.start(ringRequest(alarm, remaining: remaining, sound: sound))
    ringStarting()
    soundRinging(sound)
  }

  /// What the ringer plays for `alarm`. A sound that cannot be resolved is never opened:
  /// the request carries why, the ringer rings the fallback tone and reports it once.
  func ringRequest(_ alarm: Alarm, remaining: Duration, sound chosen: ChosenSound)
    -> RingRequest
  {
    let audio = config.audio
    var request = RingRequest(
      sound: chosen.path, volume: alarm.volume, ramp: alarm.ramp, loop: true,
      // A backstop only: the engine's own deadline stops the sound first.
      maxDuration: remaining + .seconds(5),
      devices: [audio.device] + audio.fallbackDevices.filter { $0 != audio.device },
      mixer: audio.mixer.map { MixerSetting(control: $0, ctl: audio.mixerDevice) })
    request.unplayable = chosen.problem
    request.escalation = chosen.escalation
    return request
  }

  /// Ringer events arrive here on the loop thread, through the mailbox.
  func ringerEvent(_ event: RingerEvent) {
    defer { ringerEvents?(event) }
    switch event {
    case .firstFrame(let device, let realtime):
      if let firing = awaitingFirstFrame {
        let late = realtime - .seconds(firing.seconds)
        log.info(
          "first frame on \(device) \(DurationText.milliseconds(late)) after the scheduled time")
      }
      awaitingFirstFrame = nil
      audioStatus = InputStatus(name: "audio", available: true, detail: "playing on \(device)")
    case .fallbackTone(let error):
      log.warning("audio: \(error); ringing the fallback tone")
      chosenSound?.problem = error
    case .deviceFailed(let error):
      // While the buzzer beeps, status keeps saying why (no device at all).
      if audioWatch.buzzer?.isSounding != true {
        audioStatus = InputStatus(name: "audio", available: false, detail: "\(error)")
      }
    case .deviceOpened(let device, let isFallback):
      if isFallback { log.warning("audio: playing on the fallback device \(device)") }
      audioWatch.result?.device = device
      stopBuzzer(reason: "playing on \(device)")
    case .deviceReopened(let device):
      log.notice("audio: \(device) is back; the ring goes on")
      audioStatus = InputStatus(name: "audio", available: true, detail: "playing on \(device)")
      audioWatch.result?.device = device
      stopBuzzer(reason: "playing on \(device)")
    case .noDevice(let devices):
      let text = "no audio device could be opened (tried \(devices.joined(separator: ", ")))"
      log.error("audio: \(text); retrying")
      let buzzing = audioWatch.buzzer != nil ? "; beeping the buzzer" : ""
      audioStatus = InputStatus(name: "audio", available: false, detail: text + buzzing)
      // (The event may arrive after a stop or snooze: only a ring still going beeps.)
      if engine.soundPlaying { startBuzzer(reason: "no audio device opens") }
      if let s = engine.state.session {
        audioFailed(
          alarmID: s.alarmID, at: s.firing, failed: devices,
          failover: audioWatch.buzzer != nil ? "buzzer" : "")
      }
    case .checked(let check):
      audioChecked(check)
      // The check opened the device: alsa-lib's code is mapped again.
      releasePagesSoon()
    case .mixerFailed(let error):
      log.warning("audio: mixer: \(error)")
    case .escalated(let sound):
      ringEscalated = true
      let volume = chosenSound?.escalation.map { " to \($0.volume) %" } ?? ""
      log.notice(
        "the alarm is escalating: volume rising\(volume)" + (sound.map { ", sound \($0)" } ?? ""))
    case .stopped:
      stopBuzzer(reason: "the ring ended")
      if audioStatus.available {
        audioStatus = InputStatus(name: "audio", available: true, detail: "idle")
      }
    }
  }

  func runHook(_ call: HookCall) {
    let text = AlarmText(DisplayLocale(environment: environment))
    hooks.run(call, hooks: config.hooks, zone: zone, defaultLabel: text.defaultLabel)
  }
}
