/// The config schema's types that input code takes directly.
///
/// MERGE NOTE: these five declarations are a verbatim copy of the ones in
/// Sources/AlarmCore/Config/Config.swift (branch `config`) so this branch
/// builds alone; when both are merged, delete this file and keep Config's.
/// Input only adds `outcome(of:during:)` and `stopOnly` (PressOutcome.swift).

/// What a press does while an alarm rings.
public enum PressAction: String, Hashable, Sendable, CaseIterable {
  case snooze, stop, none
}

/// What a press does while nothing rings.
public enum IdlePressAction: String, Hashable, Sendable, CaseIterable {
  /// Nothing.
  case none
  /// Runs the `[hooks] idle_press` command (ring test, speak the next alarm, ...).
  case hook
}

/// The press logic shared by GPIO buttons and evdev keys.
public struct PressActions: Hashable, Sendable {
  /// A press released before `longPress`.
  public var shortPress: PressAction
  /// Held for `longPress`: fires at the threshold, without waiting for release.
  public var longPress: PressAction
  /// Any press while nothing rings.
  public var idlePress: IdlePressAction

  public init(
    shortPress: PressAction = .snooze, longPress: PressAction = .stop,
    idlePress: IdlePressAction = .none
  ) {
    self.shortPress = shortPress
    self.longPress = longPress
    self.idlePress = idlePress
  }
}

/// GPIO line bias.
public enum GPIOBias: String, Hashable, Sendable, CaseIterable {
  case pullUp = "pull-up"
  case pullDown = "pull-down"
  case disabled
  /// Leave the line's bias as the kernel or firmware set it.
  case asIs = "as-is"
}

/// A GPIO line: by offset on its chip, or by line name (`GPIO17`).
public enum GPIOLine: Hashable, Sendable {
  case offset(UInt32)
  case name(String)
}
