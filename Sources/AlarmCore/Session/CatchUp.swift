/// Catching up with time: the firings in (lastChecked, now] and the
/// session's own deadlines, however far the clock moved.

extension AlarmEngine {
  /// Missed firings of one alarm during one catch-up: the latest few, and a
  /// count of the earlier ones, so a jump of weeks costs bounded memory.
  struct MissedRun {
    var kept: [Firing] = []
    var dropped = 0

    mutating func add(_ f: Firing, limit: Int) {
      if kept.count == limit {
        kept.removeFirst()
        dropped += 1
      }
      kept.append(f)
    }
  }

  mutating func catchUp(from last: Instant?, to now: Instant, _ out: inout [EngineAction]) {
    let maxRing = alarms.values.map(\.ringFor).max() ?? .zero
    // Firings at or before `high` were dealt with before (in this timeline or
    // one the clock has since left); unless one still rings now they are
    // passed over silently. A fresh state has no past: only rings that
    // still cover `now` count.
    var lower: Instant
    let high: Instant?
    if let last {
      lower = last
      high = state.highWater
    } else {
      lower = now - maxRing
      high = now
    }
    if let high { lower = max(lower, min(high, now - maxRing)) }
    if now - lower > options.maxScan {
      out.append(
        .log(
          .warning,
          "clock moved \(DurationText.spoken(now - lower)) ahead; only the last \(DurationText.spoken(options.maxScan)) "
            + "are examined for missed alarms"))
      lower = min(now - options.maxScan, now - maxRing)
    }

    // Rung occurrences never ring again; missed ones are not recorded twice,
    // but may still ring if the clock went back and their time comes again.
    var rung = Set<Occurrence>()
    var alreadyMissed = Set<Occurrence>()
    for h in state.history {
      let o = Occurrence(alarmID: h.alarmID, at: h.firing)
      if h.kind == .rung { rung.insert(o) } else if h.kind == .missed { alreadyMissed.insert(o) }
    }
    if let s = state.session { rung.insert(Occurrence(alarmID: s.alarmID, at: s.firing)) }

    var best: Firing? = nil
    var missed: [String: MissedRun] = [:]
    let limit = options.maxMissedPerAlarm
    func miss(_ f: Firing) {
      guard !alreadyMissed.contains(Occurrence(alarmID: f.alarmID, at: f.at)) else { return }
      missed[f.alarmID, default: MissedRun()].add(f, limit: limit)
    }
    var t = lower
    while t < now {
      let end = min(now, t + options.scanChunk)
      for f in source.firings(after: t, through: end, marks: state.marks) {
        let o = Occurrence(alarmID: f.alarmID, at: f.at)
        guard let alarm = alarms[f.alarmID], alarm.enabled, f.at <= now, !rung.contains(o)
        else { continue }
        if now < f.at + alarm.ringFor {
          if let b = best, f.at < b.at {
            miss(f)
          } else {
            if let b = best { miss(b) }
            best = f
          }
        } else if alreadyMissed.contains(o) {
          continue
        } else if let high, f.at <= high, !alarm.isOneOff {
          // A one-off still offered was never rung nor missed (both use it up): it was
          // added after that timeline (e.g. while the clock was behind), so it is missed.
          continue
        } else {
          miss(f)
        }
      }
      t = end
    }

    // One-offs still offered before the scan's start were never rung nor missed
    // (either uses them up): they were added after the timeline the clock left,
    // e.g. while it was behind. Their ring window has passed: missed, not forgotten.
    if let last, lower > last {
      for alarm in alarms.values where alarm.isOneOff && alarm.enabled {
        guard let f = source.next(of: alarm.id, after: last, marks: state.marks), f.at <= lower,
          !rung.contains(Occurrence(alarmID: f.alarmID, at: f.at))
        else { continue }
        miss(f)
      }
    }

    // A firing older than the session's own occurrence does not take it over.
    if let c = best, let s = state.session, c.at < s.firing {
      miss(c)
      best = nil
    }
    recordMissed(missed, now: now, &out)

    guard let c = best, let alarm = alarms[c.alarmID] else {
      resolveSession(at: now, audible: true, &out)
      return
    }
    // What the current session did up to the moment `c` fired, then `c`
    // takes over (startSession records the replaced one).
    resolveSession(at: c.at, audible: false, &out)
    startSession(alarm, firing: c.at, periodStart: c.at, now: now, &out)
    if alarm.isOneOff { markDone(alarm.id, at: now) }
    clearStaleSkip(c)
  }

  private mutating func recordMissed(
    _ missed: [String: MissedRun], now: Instant, _ out: inout [EngineAction]
  ) {
    var all: [(Firing, Int)] = []
    for run in missed.values {
      for (n, f) in run.kept.enumerated() { all.append((f, n == 0 ? run.dropped : 0)) }
    }
    all.sort { ($0.0.at, $0.0.alarmID) < ($1.0.at, $1.0.alarmID) }
    for (f, more) in all {
      let label = alarms[f.alarmID]?.label
      record(.missed, f.alarmID, firing: f.at, at: now, more: more)
      out.append(.hook(HookCall(event: .missed, alarmID: f.alarmID, label: label, firing: f.at)))
      let earlier = more > 0 ? " (and \(more) earlier)" : ""
      out.append(.log(.warning, "missed '\(f.alarmID)' of \(f.date) \(f.time)\(earlier)"))
      if alarms[f.alarmID]?.isOneOff == true { markDone(f.alarmID, at: now) }
      clearStaleSkip(f)
    }
  }

  /// Plays the current session forward to `t` (<= now): the end of its ring
  /// period or snooze. `audible`: `t` is now, so a ring due now starts (or
  /// resumes after a restart); otherwise the session is about to be taken
  /// over and only its ending, if it ended first, is recorded.
  mutating func resolveSession(at t: Instant, audible: Bool, _ out: inout [EngineAction]) {
    guard var s = state.session else { return }
    guard let alarm = alarms[s.alarmID] else {
      endSession(.stopped, at: t, &out)
      return
    }
    if let until = s.snoozeUntil {
      guard t >= until else { return }
      let end = until + alarm.ringFor
      s.snoozeUntil = nil
      s.periodStart = until
      state.session = s
      if t >= end {
        // The ring after the snooze came and went while nobody could hear it.
        out.append(.log(.warning, "'\(alarm.id)' was due to ring again while the service was away"))
        endSession(.missed, at: end, &out)
        return
      }
      guard audible else { return }
      out.append(.startSound(alarm, remaining: end - t, resumed: false))
      soundPlaying = true
      out.append(
        .hook(HookCall(event: .ring, alarmID: alarm.id, label: alarm.label, firing: s.firing)))
      out.append(
        .log(.notice, "snooze over: '\(alarm.id)' rings again for \(DurationText.spoken(end - t))"))
      return
    }
    let end = s.periodStart + alarm.ringFor
    if t >= end {
      out.append(
        .log(.notice, "'\(alarm.id)' silenced after ringing \(DurationText.spoken(alarm.ringFor))"))
      endSession(.silenced, at: end, &out)
      return
    }
    if audible && !soundPlaying {
      // A restart in the middle of a ring: resume for what is left of it.
      out.append(.startSound(alarm, remaining: end - t, resumed: true))
      soundPlaying = true
      out.append(
        .log(.notice, "resuming the ring of '\(alarm.id)' for \(DurationText.spoken(end - t))"))
    }
  }

  mutating func markDone(_ id: String, at now: Instant) {
    guard var mark = state.marks.oneOffs[id], mark.doneAt == nil else { return }
    mark.doneAt = now
    state.marks.oneOffs[id] = mark
  }

  /// A skip mark is spent once a later occurrence of its alarm has come.
  mutating func clearStaleSkip(_ f: Firing) {
    if let d = state.marks.skipNext[f.alarmID], d < f.date {
      state.marks.skipNext[f.alarmID] = nil
    }
  }
}
