/// What a press does, depending on whether an alarm is ringing.

/// An action a press kind is bound to.
public enum PressAction: String, Sendable, Hashable, CaseIterable {
  case snooze
  case stop
  /// Bound to nothing (e.g. a stop-only button's short press).
  case none
}

/// What a press does when no alarm is ringing or snoozed.
public enum IdlePressBehaviour: String, Sendable, Hashable, CaseIterable {
  /// Nothing.
  case none
  /// Run the configured press hook (e.g. ring-test or speak the next alarm).
  case hook
}

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
  /// No alarm active and the idle behaviour is `hook`: run it with this kind.
  case idleHook(PressKind)
  case ignore
}

/// The actions of one button or key binding: short snoozes, long stops by default.
public struct PressActions: Sendable, Hashable {
  public var short: PressAction
  public var long: PressAction
  public var whenIdle: IdlePressBehaviour

  public init(
    short: PressAction = .snooze, long: PressAction = .stop, whenIdle: IdlePressBehaviour = .none
  ) {
    self.short = short
    self.long = long
    self.whenIdle = whenIdle
  }

  /// The outcome of a press of `kind` while the session is in `activity`.
  /// While snoozed only `stop` applies (it ends the snoozed session); snoozing
  /// again would only extend it by accident.
  public func outcome(of kind: PressKind, during activity: RingActivity) -> PressOutcome {
    let action = kind == .short ? short : long
    switch activity {
    case .idle:
      return whenIdle == .hook ? .idleHook(kind) : .ignore
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
