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
    if invalidate { ring.invalidate() }
    rearm(now: now)
    if !reminderQueue.isEmpty { sayQueuedReminders() }
  }

  func perform(_ actions: [EngineAction]) {
    var save = false
    for action in actions {
      switch action {
      case .startSound(let alarm, let remaining, let resumed):
        startSound(alarm, remaining: remaining, resumed: resumed)
      case .stopSound:
        ring.stop()
        announcer.stop()
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
    // (A resumed ring is logged by the engine, which knows what is left in words.)
    var due: Instant? = nil
    if let s = engine.state.session, !resumed, now >= s.periodStart { due = s.periodStart }
    let sound = soundForSession(alarm, now: now)
    speech.silence()  // the ring's device, and the room, are the alarm's
    ring.start(ringRequest(alarm, remaining: remaining, sound: sound), firstFrameDue: due)
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
      devices: audio.devices,
      mixer: audio.mixer.map { MixerSetting(control: $0, ctl: audio.mixerDevice) })
    request.unplayable = chosen.problem
    request.stream = chosen.stream
    request.escalation = chosen.escalation
    return request
  }

  /// Ringer events arrive here on the loop thread, through the mailbox; the ring's own
  /// state is `RingCoordinator`'s, what needs the config or the hooks is done here.
  func ringerEvent(_ event: RingerEvent) {
    defer { ringerEvents?(event) }
    switch ring.handle(event, soundPlaying: engine.soundPlaying) {
    case nil: break
    case .audioFailed(let devices)?:
      if let s = engine.state.session {
        audioFailed(
          alarmID: s.alarmID, at: s.firing, failed: devices,
          failover: ring.watch.buzzer != nil ? "buzzer" : "")
      }
    case .streamFailed(let url, _)?:
      if let s = engine.state.session {
        audioFailed(
          alarmID: s.alarmID, at: s.firing, failed: [url],
          failover: engine.alarms[s.alarmID]?.fallbackSound ?? "default sound")
      }
    case .checked(let check)?:
      audioChecked(check)
      releasePagesSoon()
    case .started?:
      if engine.soundPlaying, let s = engine.state.session, let alarm = engine.alarms[s.alarmID],
        alarm.announce
      {
        announcer.started(announcement(alarm))
      }
    }
  }

  func runHook(_ call: HookCall) {
    let text = AlarmText(DisplayLocale(environment: environment))
    hooks.run(call, hooks: config.hooks, zone: zone, defaultLabel: text.defaultLabel)
  }
}
