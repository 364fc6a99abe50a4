/// Press detection for every bound key or line of one device.

/// One bound key (evdev code) or GPIO line (offset) and what its presses do.
public struct KeyBinding: Sendable, Hashable {
  /// The evdev key code (`KEY_STOP` = 128) or the GPIO line offset.
  public var code: UInt32
  public var longPress: Duration
  /// Software debounce: shorter presses are ignored (GPIO lines use the
  /// kernel's debounce instead and leave this at zero).
  public var minimumPress: Duration
  public var actions: PressActions

  public init(
    code: UInt32, longPress: Duration = .milliseconds(1500), minimumPress: Duration = .zero,
    actions: PressActions = PressActions()
  ) {
    self.code = code
    self.longPress = longPress
    self.minimumPress = minimumPress
    self.actions = actions
  }
}

/// A detected press, with the binding's actions to resolve it against the
/// ring session (`actions.outcome(of: kind, during:)`).
public struct InputPress: Sendable, Hashable {
  public var code: UInt32
  public var kind: PressKind
  public var actions: PressActions
  /// The event timestamp that completed the press (the threshold instant for a long press).
  public var timestampNanoseconds: UInt64

  public init(code: UInt32, kind: PressKind, actions: PressActions, timestampNanoseconds: UInt64) {
    self.code = code
    self.kind = kind
    self.actions = actions
    self.timestampNanoseconds = timestampNanoseconds
  }
}

/// A `PressDetector` per binding; edges of unbound codes are ignored.
public struct PressTracker: Sendable {
  private var detectors: [UInt32: PressDetector] = [:]
  private var bindings: [UInt32: KeyBinding] = [:]

  /// Later bindings of the same code replace earlier ones.
  public init(bindings: [KeyBinding]) {
    for b in bindings {
      self.bindings[b.code] = b
      detectors[b.code] = PressDetector(longPress: b.longPress, minimumPress: b.minimumPress)
    }
  }

  /// The bound codes, sorted.
  public var codes: [UInt32] { bindings.keys.sorted() }

  /// The earliest threshold deadline of any held key (monotonic ns), if any.
  public var deadline: UInt64? { detectors.values.compactMap(\.deadline).min() }

  public mutating func edge(_ edge: PressEdge, code: UInt32, at timestamp: UInt64) -> InputPress? {
    guard let binding = bindings[code], let kind = detectors[code]?.edge(edge, at: timestamp)
    else { return nil }
    return InputPress(
      code: code, kind: kind, actions: binding.actions, timestampNanoseconds: timestamp)
  }

  /// The threshold timer fired: the long presses due by `now`, in code order.
  public mutating func threshold(now: UInt64) -> [InputPress] {
    var out: [InputPress] = []
    for code in codes {
      guard let due = detectors[code]?.deadline, let binding = bindings[code],
        let kind = detectors[code]?.threshold(now: now)
      else { continue }
      out.append(
        InputPress(code: code, kind: kind, actions: binding.actions, timestampNanoseconds: due))
    }
    return out
  }

  /// Events were lost: every press in progress is forgotten.
  public mutating func eventsLost() {
    for code in detectors.keys { detectors[code]?.eventsLost() }
  }
}
