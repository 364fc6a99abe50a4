import AlarmCore

/// What happened to one occurrence (alarm id + instant the oracle says it
/// rings at) over the simulated year.
struct OccurrenceLog {
  var alarmID: String
  var at: Int64
  /// Engine calls whose span of clock time held the occurrence: `continuous`
  /// when the service was running and the clock ran normally through it.
  var covers: [(call: Int, continuous: Bool, ringFor: Int64)] = []
  /// Calls at which the engine started a ring session for it, and `now` then.
  var rings: [(call: Int, now: Int64)] = []
  /// Calls at which it was recorded missed by a catch-up.
  var missed: [Int] = []
  /// Not rung, and the call that reached it left another, no older,
  /// occurrence ringing (two alarms at one instant; one fired after the clock went back
  /// while a later one rings).
  var superseded = false
}

/// The figures of one or more simulated years. Definitions (docs/reliability.md):
/// - expected: occurrences whose instant the clock passed while the service ran
///   with the clock running normally (continuous coverage). Each must ring once,
///   exactly at its instant.
/// - rung: expected occurrences that rang at their instant (or earlier, late,
///   after a disturbance that first hid them).
/// - missed: expected occurrences that never rang (superseded ones apart).
/// - duplicated: occurrences with more than one ring session.
/// - expected-missed: occurrences only ever hidden by a forward jump or
///   downtime, and not rung; each must be recorded missed.
/// - rung-late: occurrences hidden by a jump or downtime that rang when the
///   service saw them, within their ring window.
struct SimYearFigures: CustomStringConvertible {
  var runs = 0
  var calls = 0
  var expected = 0
  var rung = 0
  var missed = 0
  var duplicated = 0
  var late = 0
  var spurious = 0
  var blind = 0
  var expectedMissed = 0
  var rungLate = 0
  var staleRings = 0
  var unrecorded = 0
  var superseded = 0
  var silent = 0
  var badWakes = 0
  var codecMismatches = 0
  var restarts = 0
  var jumpsForward = 0
  var jumpsBack = 0
  var edits = 0
  var snoozes = 0
  var stops = 0
  var offsetChanges = 0
  /// Descriptions of the first problems found, for the failure message.
  var problems: [String] = []

  /// Zero means the engine met every expectation.
  var errors: Int {
    missed + duplicated + late + spurious + staleRings + unrecorded + silent + badWakes
      + codecMismatches
  }

  mutating func problem(_ text: String) {
    if problems.count < 20 { problems.append(text) }
  }

  mutating func add(_ o: SimYearFigures) {
    runs += o.runs
    calls += o.calls
    expected += o.expected
    rung += o.rung
    missed += o.missed
    duplicated += o.duplicated
    late += o.late
    spurious += o.spurious
    blind += o.blind
    expectedMissed += o.expectedMissed
    rungLate += o.rungLate
    staleRings += o.staleRings
    unrecorded += o.unrecorded
    superseded += o.superseded
    silent += o.silent
    badWakes += o.badWakes
    codecMismatches += o.codecMismatches
    restarts += o.restarts
    jumpsForward += o.jumpsForward
    jumpsBack += o.jumpsBack
    edits += o.edits
    snoozes += o.snoozes
    stops += o.stops
    offsetChanges += o.offsetChanges
    for p in o.problems { problem(p) }
  }

  var description: String {
    """
    runs \(runs), engine calls \(calls), DST/offset changes crossed \(offsetChanges)
    disturbances: restarts \(restarts), clock jumps forward \(jumpsForward) / back \(jumpsBack), \
    config edits \(edits), snoozes \(snoozes), stops \(stops)
    rings expected \(expected): rung \(rung), missed \(missed), duplicated \(duplicated), \
    late \(late), spurious \(spurious)
    hidden by a jump or downtime \(blind): rung late \(rungLate), expected-missed \
    \(expectedMissed) (stale rings \(staleRings), unrecorded \(unrecorded))
    superseded (coincident or older than the ringing one) \(superseded)
    silent sessions \(silent), bad wake-ups \(badWakes), state round-trip mismatches \
    \(codecMismatches)
    errors \(errors)
    """
  }

  /// Classifies every occurrence once the year is over.
  mutating func classify(
    _ logs: [String: OccurrenceLog], moreAllowance: [String: Int],
    sessionAfter: [Int: (id: String, firing: Int64)]
  ) {
    var allowance = moreAllowance
    for key in logs.keys.sorted() {
      var o = logs[key]!
      // Left another occurrence, no older, ringing at the call that reached it.
      let reached = o.covers.first(where: \.continuous) ?? o.covers.first
      if let c = reached, !o.rings.contains(where: { $0.call <= c.call }),
        let s = sessionAfter[c.call],
        s.id != o.alarmID || s.firing != o.at, s.firing >= o.at
      {
        o.superseded = true
      }
      let name = "\(o.alarmID)@\(o.at)"
      if o.rings.count > 1 {
        duplicated += 1
        problem("duplicated \(name): rang at calls \(o.rings.map(\.call))")
      }
      guard let first = o.covers.first else {
        spurious += 1
        problem("spurious ring \(name) (no such occurrence)")
        continue
      }
      if let due = o.covers.first(where: \.continuous) {
        expected += 1
        // Rung before the clock ran through it (late, after a jump): fine.
        if let r = o.rings.first, r.call < due.call {
          rung += 1
        } else if let r = o.rings.first, r.call == due.call {
          if r.now == o.at {
            rung += 1
          } else {
            late += 1
            problem("late \(name): rang at \(r.now)")
          }
        } else if o.superseded {
          superseded += 1
        } else {
          missed += 1
          problem("missed \(name) (due at call \(due.call), recorded missed \(o.missed))")
        }
        continue
      }
      if first.call > 1 || !o.rings.isEmpty { blind += 1 }
      if let r = o.rings.first {
        rungLate += 1
        if r.now >= o.at + first.ringFor || r.now < o.at {
          staleRings += 1
          problem("stale ring \(name) at \(r.now)")
        }
      } else if o.superseded {
        superseded += 1
      } else if first.call == 1 {
        // Before the first start: a fresh state has no past (only a ring
        // whose window covers the start counts).
        continue
      } else {
        expectedMissed += 1
        let slot = "\(o.alarmID)#\(first.call)"
        if o.missed.contains(first.call) {
        } else if let n = allowance[slot], n > 0 {
          allowance[slot] = n - 1  // counted in another entry's "and N earlier"
        } else {
          unrecorded += 1
          problem("unrecorded miss \(name) at call \(first.call); covers \(o.covers)")
        }
      }
    }
  }
}
