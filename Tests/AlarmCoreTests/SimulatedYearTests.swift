import AlarmCore
import Foundation
import Testing

/// A simulated year per zone (SimulatedYear.swift): every ring checked
/// against the oracle (SimulatedYearOracle.swift). `SIMYEAR_SEEDS=N` runs N
/// seeds per zone and `SIMYEAR_SEED` sets the first (bench/simulated-year).
@Suite struct SimulatedYearTests {
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago",
    "Pacific/Chatham",
  ]

  @Test func theOracleMapsWallTimesByRFC5545() throws {
    let berlin = try zone("Europe/Berlin")
    let o = ZoneOracle(
      rules: berlin, from: utc("2027-01-01T00:00:00Z").seconds,
      through: utc("2027-12-31T00:00:00Z").seconds)
    func wall(_ d: String, _ t: String) -> Int64 {
      o.instant(wall: Int64(day(d).daysSinceEpoch) * 86_400 + Int64(clock(t).secondsOfDay))
    }
    #expect(
      o.transitions.map(\.at) == [
        utc("2027-03-28T01:00:00Z").seconds, utc("2027-10-31T01:00:00Z").seconds,
      ])
    // In the gap: the offset before it (+01:00), so 03:30 CEST.
    #expect(wall("2027-03-28", "02:30") == utc("2027-03-28T01:30:00Z").seconds)
    #expect(wall("2027-03-28", "03:00") == utc("2027-03-28T01:00:00Z").seconds)
    // Twice: the first occurrence, still CEST.
    #expect(wall("2027-10-31", "02:30") == utc("2027-10-31T00:30:00Z").seconds)
    #expect(wall("2027-10-31", "03:00") == utc("2027-10-31T02:00:00Z").seconds)
    #expect(o.localDay(at: utc("2027-03-27T23:30:00Z").seconds) == day("2027-03-28").daysSinceEpoch)
  }

  @Test func aYearInEachZoneRingsEveryAlarmOnce() throws {
    let env = ProcessInfo.processInfo.environment
    let seeds = env["SIMYEAR_SEEDS"].flatMap { Int($0) } ?? 2
    let first = env["SIMYEAR_SEED"].flatMap { UInt64($0) } ?? 20_270_101
    var total = SimYearFigures()
    for (z, id) in SimulatedYearTests.zones.enumerated() {
      let rules = try zone(id)
      var figures = SimYearFigures()
      for k in 0..<seeds {
        var sim = SimulatedYear(seed: first &+ UInt64(k) &+ UInt64(z) << 32, rules: rules)
        if let t = env["SIMYEAR_TRACE"], t.hasPrefix(id + ":") {
          sim.traceCalls = Set(
            t.dropFirst(id.count + 1).split(separator: ",").compactMap { Int($0) })
        }
        figures.add(sim.run())
      }
      if seeds > 1 || env["SIMYEAR_VERBOSE"] != nil { print("== \(id)\n\(figures)") }
      total.add(figures)
    }
    print("== all zones, seeds \(first)..<\(first + UInt64(seeds)) (+ zone index << 32)\n\(total)")
    #expect(total.errors == 0, "\(total.problems.joined(separator: "\n"))")
    #expect(total.expected > 1000 * seeds)
    #expect(total.restarts > 100 * seeds && total.edits > 50 * seeds)
  }
}
