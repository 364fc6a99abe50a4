import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Presses reaching the ring session.
extension Service {
  /// What a button cares about: ringing, snoozed, or nothing.
  var ringActivity: RingActivity {
    guard let s = engine.state.session else { return .idle }
    return s.isSnoozed ? .snoozed : .ringing
  }

  func startInputs() {
    guard !config.buttons.isEmpty || !config.inputs.isEmpty else { return }
    do throws(SystemError) {
      inputs = try ServiceInputs(
        loop: loop, log: log, activity: { [unowned self] in self.ringActivity },
        perform: { [unowned self] outcome, press, source in
          self.inputPressed(outcome, press, from: source)
        })
    } catch {
      log.error("buttons and input devices unavailable: \(error)")
      return
    }
    inputs?.apply(config)
  }

  /// A reload: inputs appear, change or go with the config.
  func applyInputs() {
    if inputs == nil { startInputs() } else { inputs?.apply(config) }
  }

  /// Carries out a press: snooze or stop as the control commands do (and with the same
  /// log lines and hooks), or the `idle_press` hook.
  func inputPressed(_ outcome: PressOutcome, _ press: InputPress, from source: String) {
    let kind = press.kind.rawValue
    switch outcome {
    case .ignore:
      log.debug("\(source): \(kind) press: nothing to do")
    case .idleHook(let k):
      guard let argv = config.hooks.commands[.idlePress] else { return }
      var env = HookEnvironment.variables(for: .idlePress)
      env["ALARM_PRESS"] = k.rawValue
      log.info("\(source): \(kind) press while idle: running the idle_press hook")
      hooks.run(argv, environment: env, timeout: config.hooks.timeout, name: "idle_press")
    case .snooze, .stop:
      let request: ControlRequest = outcome == .snooze ? .snooze : .stop
      let reply = answer(request)
      // From the event's kernel timestamp (the threshold, for a long press) to the PCM
      // dropped: `answer` returns after the ringer's stop.
      let now = ServiceInputs.monotonicNanoseconds()
      let late = Duration.nanoseconds(Int64(clamping: now &- min(now, press.timestampNanoseconds)))
      if case .failure(let e) = reply {
        log.info("\(source): \(kind) press: \(request.command) refused: \(e.message)")
      } else {
        log.info(
          "\(source): \(kind) press: \(request.command), \(DurationText.milliseconds(late)) after the event"
        )
      }
    }
  }
}
