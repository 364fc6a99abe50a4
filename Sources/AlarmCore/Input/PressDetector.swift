/// Short/long press detection for one button or key, driven by the kernel's
/// event timestamps (monotonic nanoseconds), never by when an event was read.

/// A button's logical state change (active-low already applied): pressed or released.
public enum PressEdge: Sendable, Hashable {
  case down
  case up
}

/// What a completed (or held) press amounts to.
public enum PressKind: String, Sendable, Hashable, CaseIterable {
  /// Released before the long-press threshold.
  case short
  /// Held until the threshold (reported at the threshold, without waiting for release).
  case long
}

/// Turns edges into short and long presses.
///
/// `.long` is reported at the threshold: after every edge, `deadline` says
/// when the caller should arm a timer (on CLOCK_MONOTONIC, the clock of the
/// event timestamps) and call `threshold(now:)`. Before calling it, drain the
/// device's pending events: a release that happened before the threshold but
/// was read late still counts as short, because only timestamps are compared.
public struct PressDetector: Sendable, Hashable {
  /// Hold time that makes a press long, in nanoseconds.
  public let longPressNanoseconds: UInt64
  /// Presses shorter than this are contact bounce and ignored (0 = keep all).
  public let minimumPressNanoseconds: UInt64

  private enum State: Sendable, Hashable {
    case idle
    case pressed(since: UInt64, longReported: Bool)
  }
  private var state = State.idle

  /// - Parameters:
  ///   - longPress: hold time for a long press (default 1.5 s, the config default).
  ///   - minimumPress: software debounce; a press shorter than this is ignored.
  public init(longPress: Duration = .milliseconds(1500), minimumPress: Duration = .zero) {
    longPressNanoseconds = max(1, PressDetector.nanoseconds(longPress))
    minimumPressNanoseconds = PressDetector.nanoseconds(minimumPress)
  }

  /// Whether the button is held, as far as the events tell.
  public var isPressed: Bool {
    if case .pressed = state { return true }
    return false
  }

  /// When to call `threshold(now:)` (monotonic ns), or nil when no timer is needed.
  public var deadline: UInt64? {
    guard case .pressed(let since, false) = state else { return nil }
    return PressDetector.adding(since, longPressNanoseconds)
  }

  /// Feeds one edge with its kernel timestamp; returns a completed press, if any.
  public mutating func edge(_ edge: PressEdge, at timestamp: UInt64) -> PressKind? {
    switch (edge, state) {
    case (.down, .idle):
      state = .pressed(since: timestamp, longReported: false)
      return nil
    case (.down, .pressed(let since, let longReported)):
      // The release was lost. It happened before this press, so a previous
      // press younger than the threshold was short; an older one is unknown
      // (it may have been held past it) and is dropped rather than guessed.
      state = .pressed(since: timestamp, longReported: false)
      if longReported { return nil }
      let held = timestamp &- since
      guard timestamp >= since, held < longPressNanoseconds else { return nil }
      return held >= minimumPressNanoseconds ? .short : nil
    case (.up, .idle):
      return nil  // a release without its press (start-up, or after lost events)
    case (.up, .pressed(let since, let longReported)):
      state = .idle
      if longReported { return nil }
      let held = timestamp >= since ? timestamp - since : 0
      if held < minimumPressNanoseconds { return nil }
      // Read after the threshold timer should have fired: the timestamps decide.
      return held >= longPressNanoseconds ? .long : .short
    }
  }

  /// Feeds an evdev key value: 1 press, 0 release, 2 autorepeat (ignored).
  public mutating func keyValue(_ value: Int32, at timestamp: UInt64) -> PressKind? {
    switch value {
    case 1: return edge(.down, at: timestamp)
    case 0: return edge(.up, at: timestamp)
    default: return nil
    }
  }

  /// The threshold timer fired at `now` (monotonic ns): reports `.long` if
  /// the button is still held and has been for the long-press time.
  public mutating func threshold(now: UInt64) -> PressKind? {
    guard case .pressed(let since, false) = state,
      now >= PressDetector.adding(since, longPressNanoseconds)
    else { return nil }
    state = .pressed(since: since, longReported: true)
    return .long
  }

  /// Events were dropped (a seqno gap or SYN_DROPPED): the state is unknown,
  /// so any press in progress is forgotten and the next press starts afresh.
  public mutating func eventsLost() {
    state = .idle
  }

  static func nanoseconds(_ d: Duration) -> UInt64 {
    let (s, atto) = d.components
    guard s >= 0 else { return 0 }
    let (ns, overflow) = UInt64(s).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return UInt64.max }
    return adding(ns, UInt64(max(0, atto / 1_000_000_000)))
  }

  static func adding(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? UInt64.max : sum
  }
}
