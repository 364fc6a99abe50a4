import AlarmCore

/// A year of one service's life, driven the way the service drives the ring
/// engine: from `now`, go to the earlier of the engine's next wake-up and the
/// next disturbance, call the engine, perform what it says. The clock is
/// injected: `clock = real + skew`, and jumps change the skew. Restarts
/// encode the state with StateCodec, drop the engine and build a new one
/// from the decoded bytes, as the service does after a crash.
struct SimulatedYear {
  let seed: UInt64
  let rules: TimeZoneRules
  let oracle: ZoneOracle
  let start: Int64
  let end: Int64
  var rng: SplitMix64
  var factory: AlarmFactory
  var options: EngineOptions

  var real: Int64
  var skew: Int64 = 0
  var clock: Int64 { real + skew }
  var engine: AlarmEngine?
  var alarms: [Alarm] = []
  var known: [String: OracleAlarm] = [:]
  var soundOn = false
  /// Disturbances by real instant (kept sorted; ties in insertion order).
  var events: [(at: Int64, what: Disturbance)] = []

  /// Clock time since the last engine call: (lo, hi] spans, continuous or
  /// hidden from the engine (jump, downtime).
  var pending: [(lo: Int64, hi: Int64, continuous: Bool)] = []
  var lastCallClock: Int64?
  /// Engine calls to print in full (debugging a failing seed).
  var traceCalls: Set<Int>?
  var segmentStart: Int64?
  var calls = 0
  var logs: [String: OccurrenceLog] = [:]
  var moreAllowance: [String: Int] = [:]
  /// The session each call left in force (alarm id, firing).
  var sessionAfter: [Int: (id: String, firing: Int64)] = [:]
  var figures = SimYearFigures()

  /// `year`: simulated from Jan 1 (UTC) for `days` days, with `alarmCount` alarms.
  init(seed: UInt64, rules: TimeZoneRules, year: Int = 2027, days: Int = 365, alarmCount: Int = 8) {
    self.seed = seed
    self.rules = rules
    start = Int64(LocalDate(year: year, month: 1, day: 1).daysSinceEpoch) * 86_400
    end = start + Int64(days) * 86_400
    oracle = ZoneOracle(rules: rules, from: start - 86_400, through: end + 86_400)
    rng = SplitMix64(seed: seed)
    factory = AlarmFactory(oracle: oracle, yearStart: start)
    let lead: Duration? =
      Bool.random(using: &rng) ? .seconds(Int64.random(in: 60...1800, using: &rng)) : nil
    options = EngineOptions(preRingLead: lead)
    real = start + Int64.random(in: 0..<86_400, using: &rng)
    for _ in 0..<alarmCount { alarms.append(factory.make(near: real, &rng)) }
    scheduleDisturbances()
  }

  mutating func schedule(_ what: Disturbance, at t: Int64) {
    let i = events.firstIndex { $0.at > t } ?? events.count
    events.insert((t, what), at: i)
  }

  /// Random disturbances over the year, plus a cluster around each offset
  /// change, where they hurt most.
  mutating func scheduleDisturbances() {
    var t = real
    while t < end {
      t += Int64.random(in: 600...(40 * 3600), using: &rng)
      schedule(randomDisturbance(), at: t)
    }
    for c in oracle.transitions where c.at > real && c.at < end {
      for _ in 0..<3 {
        schedule(
          randomDisturbance(), at: c.at + Int64.random(in: -3 * 3600...3 * 3600, using: &rng))
      }
    }
  }

  mutating func randomDisturbance() -> Disturbance {
    switch Int.random(in: 0..<20, using: &rng) {
    case 0..<4: return .restart(downtime: downtime(), stale: false, ntpAfter: 0)
    case 4..<6:
      return .restart(
        downtime: downtime(), stale: true, ntpAfter: Int64.random(in: 5...300, using: &rng))
    case 6..<9: return .jump(by: Int64.random(in: 60...(6 * 3600), using: &rng))
    case 9..<12: return .jump(by: -Int64.random(in: 60...(3 * 3600), using: &rng))
    default: return .edit
    }
  }

  mutating func downtime() -> Int64 {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0..<4: return 0
    case 4..<7: return Int64.random(in: 1...120, using: &rng)
    case 7..<9: return Int64.random(in: 120...1800, using: &rng)
    default: return Int64.random(in: 1800...(8 * 3600), using: &rng)
    }
  }

  // MARK: Running

  mutating func run() -> SimYearFigures {
    figures.runs = 1
    figures.offsetChanges = oracle.transitions.filter { $0.at > real && $0.at < end }.count
    segmentStart = clock
    boot()
    while real < end {
      let wake = engine?.nextWake(now: Instant(seconds: clock)).map { $0.seconds - skew }
      if let w = wake, w <= real {
        figures.badWakes += 1
        figures.problem("nextWake \(w + skew) not after now \(clock)")
      }
      let next = events.first?.at ?? Int64.max
      if let w = wake, w > real, w <= next {
        if w >= end { break }
        passTime(to: w)
        call { $0.advance(to: $1) }
        continue
      }
      guard next < end else { break }
      passTime(to: max(real, next))
      let what = events.removeFirst().what
      perform(what)
    }
    figures.calls = calls
    figures.classify(logs, moreAllowance: moreAllowance, sessionAfter: sessionAfter)
    figures.problems = figures.problems.map { "\(rules.identifier) seed \(seed): \($0)" }
    return figures
  }

  /// Real time passes with the clock running normally.
  mutating func passTime(to t: Int64) {
    real = t
  }

  /// Closes the continuous span the clock has run through since `segmentStart`.
  mutating func closeSpan(continuous: Bool) {
    if let s = segmentStart, clock > s { pending.append((s, clock, continuous && engine != nil)) }
    segmentStart = clock
  }

  mutating func perform(_ what: Disturbance) {
    switch what {
    case .jump(let by):
      closeSpan(continuous: true)
      if by > 0 { figures.jumpsForward += 1 } else { figures.jumpsBack += 1 }
      setClock(clock + by)
      if Int.random(in: 0..<10, using: &rng) < 7 {
        schedule(.fixClock, at: real + Int64.random(in: 10...(2 * 3600), using: &rng))
      }
    case .fixClock:
      guard skew != 0 else { return }
      closeSpan(continuous: true)
      if skew < 0 { figures.jumpsForward += 1 } else { figures.jumpsBack += 1 }
      setClock(real)
    case .restart(let downtime, let stale, let ntpAfter):
      restart(downtime: downtime, stale: stale, ntpAfter: ntpAfter)
    case .edit:
      guard engine != nil else { return }
      figures.edits += 1
      let edited = factory.edit(alarms, near: clock, &rng)
      let rules = rules
      call { engine, now in
        engine.reload(alarms: edited, source: Schedule(alarms: edited, zone: rules), now: now)
      } configChange: { sim in
        sim.adopt(edited)
      }
    case .snooze:
      guard engine?.state.session.map({ !$0.isSnoozed }) == true else { return }
      figures.snoozes += 1
      call { $0.snooze(now: $1).actions }
    case .stop:
      guard engine?.state.session != nil else { return }
      figures.stops += 1
      call { $0.stop(now: $1).actions }
    }
  }

  /// The clock is set: the service hears of it at once (timerfd cancel-on-set).
  mutating func setClock(_ c: Int64) {
    let old = clock
    skew = c - real
    if c > old { pending.append((old, c, false)) }
    segmentStart = clock
    if engine != nil { call { $0.advance(to: $1) } }
  }

  mutating func boot() {
    engine = AlarmEngine(
      alarms: alarms, source: Schedule(alarms: alarms, zone: rules), options: options)
    // The first call arms the one-offs; before it, a fresh state has no past
    // except rings whose window still covers now.
    let maxRing = alarms.map { $0.ringFor.components.seconds }.max() ?? 0
    pending.append((clock - maxRing, clock, false))
    lastCallClock = clock
    adopt(alarms)
    call { $0.advance(to: $1) }
  }

  mutating func restart(downtime: Int64, stale: Bool, ntpAfter: Int64) {
    guard let e = engine else { return }
    closeSpan(continuous: true)
    figures.restarts += 1
    let bytes = StateCodec.encode(e.state)
    engine = nil
    soundOn = false
    events.removeAll {
      if case .snooze = $0.what { return true }
      if case .stop = $0.what { return true }
      return false
    }
    real += downtime
    // The clock ran on while the service was down, unseen; after a stale
    // boot it starts again from the saved time and only NTP's jump moves it.
    if downtime > 0 && !stale { pending.append((segmentStart!, clock, false)) }
    if stale, let saved = e.state.lastChecked {
      // Boots at the last saved time plus the boot time, then NTP fixes it.
      skew = saved.seconds + Int64.random(in: 5...30, using: &rng) - real
      schedule(.fixClock, at: real + ntpAfter)
    }
    segmentStart = clock
    let state: ServiceState
    do {
      state = try StateCodec.decode(bytes)
    } catch {
      figures.codecMismatches += 1
      figures.problem("state did not decode: \(error)")
      return
    }
    if state != e.state {
      figures.codecMismatches += 1
      figures.problem("state changed through the codec")
    }
    engine = AlarmEngine(
      alarms: alarms, source: Schedule(alarms: alarms, zone: rules), state: state,
      options: options)
    call { $0.advance(to: $1) }
  }
}

// MARK: - Engine calls and what they are checked against

extension SimulatedYear {
  /// One engine call at the current clock: first the oracle's occurrences
  /// for the clock time passed since the last call (under the config in
  /// force until now), then the call, then what it did.
  mutating func call(
    _ body: (inout AlarmEngine, Instant) -> [EngineAction],
    configChange: ((inout SimulatedYear) -> Void)? = nil
  ) {
    guard engine != nil else { return }
    closeSpan(continuous: true)
    calls += 1
    let n = calls
    for span in pending {
      for id in known.keys.sorted() {
        let a = known[id]!
        for f in oracle.occurrences(of: a, after: span.lo, through: span.hi) {
          logs["\(id)@\(f)", default: OccurrenceLog(alarmID: id, at: f)].covers.append(
            (n, span.continuous, a.alarm.ringFor.components.seconds))
          if a.alarm.isOneOff { known[id]!.done = true }
        }
      }
    }
    let spans = pending
    pending = []

    var before: [HistoryEntry: Int] = [:]
    for h in engine!.state.history { before[h, default: 0] += 1 }
    let now = Instant(seconds: clock)
    let actions = body(&engine!, now)
    if let trace = traceCalls, trace.contains(n) {
      print("call \(n) at \(clock) real \(real) spans \(spans) actions \(actions)")
      print("  before \(before.keys.map(\.kind)) state \(engine!.state)")
    }
    configChange?(&self)
    lastCallClock = clock
    let state = engine!.state

    for h in state.history {
      if let c = before[h], c > 0 {
        before[h] = c - 1
        continue
      }
      let key = "\(h.alarmID)@\(h.firing.seconds)"
      switch h.kind {
      case .rung:
        logs[key, default: OccurrenceLog(alarmID: h.alarmID, at: h.firing.seconds)].rings.append(
          (n, h.at.seconds))
      case .missed where logs[key]?.rings.isEmpty == false:
        break  // the ring after a snooze came while the service was away
      case .missed:
        logs[key, default: OccurrenceLog(alarmID: h.alarmID, at: h.firing.seconds)].missed.append(
          n)
        if h.more > 0 { moreAllowance["\(h.alarmID)#\(n)", default: 0] += h.more }
      default: break
      }
    }

    var rings = 0
    for action in actions {
      switch action {
      case .startSound: soundOn = true
      case .stopSound: soundOn = false
      case .hook(let h) where h.event == .ring: rings += 1
      default: break
      }
    }
    if let s = state.session { sessionAfter[n] = (s.alarmID, s.firing.seconds) }
    let ringing = state.session.map { !$0.isSnoozed } ?? false
    if ringing != soundOn {
      figures.silent += 1
      figures.problem(
        "at \(clock): session \(String(describing: state.session)) but sound \(soundOn)")
    }
    for _ in 0..<rings { respondToRing() }
  }

  /// What the person (or the power) does while it rings.
  mutating func respondToRing() {
    let after = Int64.random(in: 3...600, using: &rng)
    switch Int.random(in: 0..<20, using: &rng) {
    case 0..<7: schedule(.snooze, at: real + after)
    case 7..<13: schedule(.stop, at: real + after)
    case 13..<15:
      schedule(.restart(downtime: downtime(), stale: false, ntpAfter: 0), at: real + after / 2)
    default: break  // rings until it silences itself
    }
  }

  /// A new config is in force: one-offs new, re-enabled or edited (time or
  /// date) are armed now; the others keep their arming and done state.
  mutating func adopt(_ new: [Alarm]) {
    var next: [String: OracleAlarm] = [:]
    for a in new {
      var o = OracleAlarm(alarm: a)
      if a.isOneOff && a.enabled {
        if let old = known[a.id], old.alarm.isOneOff, old.alarm.enabled,
          old.alarm.time == a.time, old.alarm.date == a.date, old.armedAt != nil
        {
          o.armedAt = old.armedAt
          o.done = old.done
        } else {
          o.armedAt = clock
        }
      }
      next[a.id] = o
    }
    known = next
    alarms = new
  }
}
