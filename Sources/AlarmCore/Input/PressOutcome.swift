/// What a press does, depending on whether an alarm is ringing.

/// The ring session's state as far as a button cares.
public enum RingActivity: Sendable, Hashable {
  case idle
  case ringing
  case snoozed
}

/// The decision for one press.
public enum PressOutcome: Sendable, Hashable {
  case snooze
  case stop
  /// Nothing rings and `idlePress` is `hook`: run `[hooks] idle_press` (with this kind).
  case idleHook(PressKind)
  /// Nothing rings and `idlePress` is `say_time`: say the time and the next alarm.
  case sayTime
  case ignore
}

extension PressActions {
  /// Actions of a key that stops on any press (`[[input]] stop = [...]`).
  public static let stopOnly = PressActions(shortPress: .stop, longPress: .stop)

  /// The outcome of a press of `kind` while the session is in `activity`.
  /// While snoozed only `stop` applies (it ends the snoozed session); snoozing
  /// again would only extend it by accident.
  public func outcome(of kind: PressKind, during activity: RingActivity) -> PressOutcome {
    let action = kind == .short ? shortPress : longPress
    switch activity {
    case .idle:
      switch idlePress {
      case .hook: return .idleHook(kind)
      case .sayTime: return .sayTime
      case .none: return .ignore
      }
    case .ringing:
      switch action {
      case .snooze: return .snooze
      case .stop: return .stop
      case .none: return .ignore
      }
    case .snoozed:
      return action == .stop ? .stop : .ignore
    }
  }
}
