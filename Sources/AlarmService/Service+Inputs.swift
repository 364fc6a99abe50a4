import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Presses reaching the ring session: the inputs report each press, the service decides
/// what it does from the session's state, and a snooze or stop goes through `dispatch`.
extension Service {
  /// What a button cares about: ringing, snoozed, or nothing.
  var ringActivity: RingActivity {
    guard let s = engine.state.session else { return .idle }
    return s.isSnoozed ? .snoozed : .ringing
  }

  func startInputs() {
    guard !config.buttons.isEmpty || !config.inputs.isEmpty else { return }
    do throws(SystemError) {
      inputs = try PressInputs(
        loop: loop, log: log, devDirectory: options.devDirectory,
        inputDirectory: options.inputDirectory,
        onPress: { [unowned self] press, source in self.pressed(press, from: source) })
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

  /// Decides a press: snooze or stop as the control commands do (same dispatcher, same log
  /// lines and hooks), or the `idle_press` hook.
  func pressed(_ press: InputPress, from source: String) {
    let kind = press.kind.rawValue
    if ringActivity == .idle, ring.prepared == nil,
      pressMarksReminderDone(now: clock.now(), source: source)
    {
      return
    }
    switch press.actions.outcome(of: press.kind, during: ringActivity) {
    case .ignore:
      log.debug("\(source): \(kind) press: nothing to do")
    case .idleHook(let k):
      guard let argv = config.hooks.commands[.idlePress] else { return }
      var env = HookEnvironment.variables(for: .idlePress)
      env["ALARM_PRESS"] = k.rawValue
      log.info("\(source): \(kind) press while idle: running the idle_press hook")
      hooks.run(argv, environment: env, timeout: config.hooks.timeout, name: "idle_press")
    case .sayTime where ring.prepared != nil:
      // The prepared ring holds its device, and the alarm is seconds away.
      log.info("\(source): \(kind) press while idle: not speaking, an alarm is about to ring")
    case .sayTime:
      log.info("\(source): \(kind) press while idle: saying the time")
      sayTime(now: clock.now())
    case .snooze:
      dispatch(.snooze, from: .press(press, source: source))
    case .stop:
      dispatch(.stop, from: .press(press, source: source))
    }
  }
}
