import AlarmCore
import Testing

@Suite struct TimeTZifTests {
  /// A version 1 file: the first header and 32-bit block of a real file, version byte 0.
  private func version1(of bytes: [UInt8]) -> [UInt8] {
    func count(_ at: Int) -> Int {
      bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    let (isut, isstd, leap, time, type, char) =
      (count(20), count(24), count(28), count(32), count(36), count(40))
    let length = 44 + time * 5 + type * 6 + char + leap * 8 + isstd + isut
    var v1 = Array(bytes[0..<length])
    v1[4] = 0
    return v1
  }

  @Test func version1UsesThe32BitData() throws {
    let v1 = try TimeZoneRules(
      identifier: "Berlin1", tzif: version1(of: zoneBytes("Europe/Berlin")))
    let v2 = try zone("Europe/Berlin")
    var t = utc("1902-01-01T00:00:00Z").seconds
    while t < utc("2037-12-01T00:00:00Z").seconds {
      #expect(v1.offset(at: Instant(seconds: t)) == v2.offset(at: Instant(seconds: t)))
      t += 86400 * 13 + 3600 * 5
    }
  }

  @Test func version3Files() throws {
    let nuuk = try zone("America/Nuuk")
    #expect(try zoneBytes("America/Nuuk")[4] == UInt8(ascii: "3"))
    #expect(nuuk.offset(at: utc("2027-07-01T00:00:00Z")) == -3600)
    #expect(
      nuuk.transitions(from: utc("2040-01-01T00:00:00Z"), through: utc("2041-01-01T00:00:00Z"))
        == [utc("2040-03-25T01:00:00Z"), utc("2040-10-28T01:00:00Z")])
    let jerusalem = try zone("Asia/Jerusalem")
    #expect(jerusalem.offset(at: utc("2040-03-23T00:00:00Z")) == 10800)
    #expect(jerusalem.offset(at: utc("2040-03-22T23:59:59Z")) == 7200)
  }

  @Test func slimFilesRelyOnTheFooter() throws {
    // A slim-style file: no transitions, only a footer (Etc/UTC is one).
    let etc = try zone("Etc/UTC")
    #expect(etc.offset(at: utc("2030-01-01T00:00:00Z")) == 0)
    #expect(etc.abbreviation(at: utc("2030-01-01T00:00:00Z")) == "UTC")
    // A Berlin file cut down to its footer rules still follows the rules.
    let berlin = try zone("Europe/Berlin")
    #expect(berlin.offset(at: utc("2200-07-01T00:00:00Z")) == 7200)
    #expect(berlin.offset(at: utc("2200-12-01T00:00:00Z")) == 3600)
  }

  @Test func rejectsBadFilesWithReasons() throws {
    let good = try zoneBytes("Europe/Berlin")
    #expect(throws: TimeZoneError.self) { try TimeZoneRules(identifier: "x", tzif: []) }
    #expect(throws: TimeZoneError.self) {
      try TimeZoneRules(identifier: "x", tzif: Array("# not a zone\n".utf8))
    }
    do {
      _ = try TimeZoneRules(identifier: "Bad/Zone", tzif: Array(good[0..<100]))
      Issue.record("accepted a truncated file")
    } catch {
      #expect(error.message.contains("Bad/Zone"))
      #expect(error.message.contains("truncated"))
    }
    #expect(throws: TimeZoneError.self) {
      try TimeZoneRules(identifier: "right", tzif: zoneBytes("right/Europe/Berlin"))
    }
  }

  @Test func neverCrashesOnDamagedFiles() throws {
    var rng = SplitMix(seed: 42)
    for id in ["Europe/Berlin", "America/Nuuk", "Australia/Lord_Howe"] {
      let good = try zoneBytes(id)
      for cut in stride(from: 0, to: good.count, by: 7) {
        _ = try? TimeZoneRules(identifier: id, tzif: Array(good[0..<cut]))
      }
      for _ in 0..<1500 {
        var bad = good
        for _ in 0..<(1 + Int(rng.next() % 4)) {
          bad[Int(rng.next() % UInt64(bad.count))] = UInt8(truncatingIfNeeded: rng.next())
        }
        if let z = try? TimeZoneRules(identifier: id, tzif: bad) {
          _ = z.local(at: Instant(seconds: Int64(bitPattern: rng.next()) >> 20))
          _ = z.wall("2031-03-30", "02:30")
        }
      }
    }
  }
}

/// A small deterministic generator, so failures reproduce.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
