/// The ring engine: a pure state machine the service drives. It never reads
/// the clock; every input carries `now`. It owns the alarms, the firing
/// source and the persistent `ServiceState`, and answers with actions.
///
/// Semantics (as docs/config.md states them for users):
/// - ring (looped, fading in) -> snooze (silent for the alarm's snooze length)
///   -> ring ... -> stop, or auto-silence: each ring period, the first and each
///   one after a snooze, lasts up to `ringFor` from its start. A session's first
///   period starts at the firing instant, so a late start rings only for what
///   is left of the window.
/// - One session at a time: an alarm that fires during a session takes it
///   over; the replaced one is recorded (`HistoryKind.replaced`).
/// - A one-off is marked done when it starts ringing (or is missed).
/// - Catching up (start-up, clock jumps, late timers): of the firings in
///   (lastChecked, now], the most recent one whose window still covers now
///   (at <= now < at + ringFor) rings at once for what is left; every other
///   is recorded as missed, never rung stale. An occurrence that has rung
///   never rings again, even if the clock goes back over it.
public struct AlarmEngine: Sendable {
  /// The alarms in force, by id.
  public internal(set) var alarms: [String: Alarm]
  public internal(set) var source: any FiringSource
  /// What to save when the engine says `.saveState`.
  public internal(set) var state: ServiceState
  public var options: EngineOptions
  /// Whether sound was started and not stopped since (not persisted: a
  /// restarted service plays nothing until the engine resumes it).
  public internal(set) var soundPlaying = false

  /// Set until the first input: marks are reconciled with the alarms then.
  var reconciled = false
  /// Occurrences whose pre-ring hook has run (in memory only).
  var preRang: Set<Occurrence> = []

  struct Occurrence: Hashable, Sendable {
    var alarmID: String
    var at: Instant
  }

  /// `state` is what the state file held (or a fresh `ServiceState()`).
  /// Nothing happens until the first `advance(to:)`.
  public init(
    alarms: [Alarm], source: any FiringSource, state: ServiceState = ServiceState(),
    options: EngineOptions = EngineOptions()
  ) {
    self.alarms = Dictionary(alarms.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    self.source = source
    self.state = state
    self.options = options
  }

  // MARK: Time passing

  /// Brings the engine up to `now`: call at start-up, on every timer expiry
  /// and after every clock change. Idempotent for the same `now`.
  public mutating func advance(to now: Instant) -> [EngineAction] {
    var out: [EngineAction] = []
    let before = state
    step(to: now, &out)
    finish(now: now, before: before, &out)
    return out
  }

  /// When the service must call `advance` next: the earliest of the next
  /// firing, the session's deadline (ring end or snooze end) and the next
  /// pre-ring instant. nil: nothing will ever happen. (History pruning is no
  /// reason to wake: it happens on the next save.) Ask after `advance(to: now)`.
  public func nextWake(now: Instant) -> Instant? {
    var wake: [Instant] = []
    if let f = source.next(after: now, marks: state.marks) { wake.append(f.at) }
    if let d = sessionDeadline { wake.append(d) }
    if let lead = options.preRingLead, lead > .zero,
      let f = source.next(after: now + lead, marks: state.marks)
    {
      wake.append(f.at - lead)
    }
    return wake.min()
  }

  /// The end of the current ring period, or of the snooze.
  public var sessionDeadline: Instant? {
    guard let s = state.session else { return nil }
    if let until = s.snoozeUntil { return until }
    guard let alarm = alarms[s.alarmID] else { return nil }
    return s.periodStart + alarm.ringFor
  }

  /// The next `count` firings after `now`, in order (simultaneous ones all listed).
  public func upcoming(after now: Instant, count: Int) -> [Firing] {
    Upcoming.firings(source, after: now, count: count, marks: state.marks)
  }

  /// History entries people care about in `status`: rung, missed, replaced.
  public func recentHistory(now: Instant) -> [HistoryEntry] {
    let cutoff = now - ServiceState.historyWindow
    return state.history.filter {
      $0.at >= cutoff && [.rung, .missed, .replaced].contains($0.kind)
    }
  }

  // MARK: Internals shared with the commands

  mutating func step(to now: Instant, _ out: inout [EngineAction]) {
    if !reconciled {
      reconcile(now: now, &out)
      reconciled = true
    }
    if let last = state.lastChecked, now < last {
      clockWentBack(from: last, to: now, &out)
      catchUp(from: now, to: now, &out)
    } else {
      catchUp(from: state.lastChecked, to: now, &out)
    }
    preRing(now: now, &out)
    state.lastChecked = now
    state.highWater = max(state.highWater ?? now, now)
  }

  mutating func finish(now: Instant, before: ServiceState, _ out: inout [EngineAction]) {
    state.prune(now: now)
    if state != before { out.append(.saveState) }
  }

  /// The clock went back: occurrences after `now` that have not rung may
  /// ring when their time comes again; the session's deadlines are kept no
  /// further away than a fresh period or snooze would be.
  mutating func clockWentBack(from last: Instant, to now: Instant, _ out: inout [EngineAction]) {
    out.append(
      .log(.warning, "clock went back by \(DurationText.spoken(last - now)); rung alarms stay rung")
    )
    state.lastChecked = now
    guard var s = state.session, let alarm = alarms[s.alarmID] else { return }
    if let until = s.snoozeUntil, let len = alarm.snooze, until - now > len {
      s.snoozeUntil = now + len
    }
    if s.periodStart > now { s.periodStart = now }
    state.session = s
  }

  /// Makes the marks fit the alarms in force: new or edited one-offs are
  /// armed at `now`, marks of unknown alarms dropped; a session whose alarm
  /// is gone or disabled stops.
  mutating func reconcile(now: Instant, _ out: inout [EngineAction]) {
    // A test ring (`ring ID`) rings disabled alarms too: only removing the alarm ends it.
    if let s = state.session,
      alarms[s.alarmID] == nil || (alarms[s.alarmID]?.enabled != true && !s.isTest)
    {
      let why = alarms[s.alarmID] == nil ? "removed" : "disabled"
      out.append(.log(.notice, "alarm '\(s.alarmID)' was \(why): its ring session stops"))
      endSession(.stopped, at: now, &out)
    }
    state.marks.skipNext = state.marks.skipNext.filter { alarms[$0.key] != nil }
    state.marks.oneOffs = state.marks.oneOffs.filter { id, _ in
      guard let a = alarms[id] else { return false }
      // Disabling a one-off forgets it: enabling it again re-arms it, as on a phone.
      return a.isOneOff && a.enabled
    }
    for alarm in alarms.values.sorted(by: { $0.id < $1.id }) where alarm.isOneOff && alarm.enabled {
      let fp = OneOffMark.fingerprint(of: alarm)
      if state.marks.oneOffs[alarm.id]?.fingerprint != fp {
        state.marks.oneOffs[alarm.id] = OneOffMark(armedAt: now, fingerprint: fp)
        out.append(.log(.info, "one-off '\(alarm.id)' armed"))
      }
    }
    preRang = preRang.filter { alarms[$0.alarmID] != nil }
  }

  /// Runs the pre-ring hook for firings within the lead time (late if a
  /// jump landed inside the lead window), once per occurrence.
  mutating func preRing(now: Instant, _ out: inout [EngineAction]) {
    guard let lead = options.preRingLead, lead > .zero else { return }
    preRang = preRang.filter { $0.at > now }
    for f in source.firings(after: now, through: now + lead, marks: state.marks) {
      let key = Occurrence(alarmID: f.alarmID, at: f.at)
      guard let alarm = alarms[f.alarmID], alarm.enabled, !preRang.contains(key),
        !state.hasRung(f.alarmID, at: f.at)
      else { continue }
      preRang.insert(key)
      out.append(
        .hook(HookCall(event: .preRing, alarmID: f.alarmID, label: alarm.label, firing: f.at)))
    }
  }

  /// Starts a session (taking over any current one) whose ring period
  /// began at `periodStart`.
  mutating func startSession(
    _ alarm: Alarm, firing: Instant, periodStart: Instant, now: Instant, test: Bool = false,
    _ out: inout [EngineAction]
  ) {
    if state.session != nil { endSession(.replaced, at: now, &out) }
    state.session = RingSession(
      alarmID: alarm.id, firing: firing, started: now, periodStart: periodStart, isTest: test)
    let remaining = periodStart + alarm.ringFor - now
    out.append(.startSound(alarm, remaining: remaining, resumed: false))
    soundPlaying = true
    record(.rung, alarm.id, firing: firing, at: now)
    out.append(.hook(HookCall(event: .ring, alarmID: alarm.id, label: alarm.label, firing: firing)))
    out.append(.log(.notice, "ringing '\(alarm.id)' for \(DurationText.spoken(remaining))"))
  }

  /// Ends the session, recording why. `.replaced` runs no stop hook: the
  /// session goes on with the alarm that took it over.
  mutating func endSession(_ kind: HistoryKind, at: Instant, _ out: inout [EngineAction]) {
    guard let s = state.session else { return }
    if soundPlaying {
      out.append(.stopSound)
      soundPlaying = false
    }
    record(kind, s.alarmID, firing: s.firing, at: at)
    let label = alarms[s.alarmID]?.label
    switch kind {
    case .replaced: break
    case .missed:
      out.append(
        .hook(HookCall(event: .missed, alarmID: s.alarmID, label: label, firing: s.firing)))
    default:
      out.append(.hook(HookCall(event: .stop, alarmID: s.alarmID, label: label, firing: s.firing)))
    }
    out.append(.log(.info, "session of '\(s.alarmID)' ended: \(kind.rawValue)"))
    state.session = nil
  }

  mutating func record(
    _ kind: HistoryKind, _ alarmID: String, firing: Instant, at: Instant, more: Int = 0
  ) {
    state.history.append(
      HistoryEntry(
        kind: kind, alarmID: alarmID, label: alarms[alarmID]?.label, firing: firing, at: at,
        more: more))
  }
}
