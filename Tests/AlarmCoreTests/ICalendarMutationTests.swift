import AlarmCore
import Testing

/// Damaged copies of the fixtures (flipped bytes, cut and repeated runs,
/// inserted fragments such as a DTSTART in the year 0): the reader warns and
/// goes on, never crashes, hangs or floods the log.
@Suite struct ICalendarMutationTests {
  /// xorshift64*: seeded, so a failure repeats.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return state &* 2_685_821_657_736_338_717
    }
  }

  static let pieces: [[UInt8]] = [
    ":", ";", "\"", "\r\n", "\n ", "\\", "BEGIN:VEVENT\r\n", "END:VEVENT\r\n",
    "RRULE:FREQ=DAILY\r\n", "RRULE:FREQ=YEARLY;BYDAY=-53MO;BYSETPOS=-366\r\n",
    "DTSTART;VALUE=DATE:00000101\r\n", "DTEND;VALUE=DATE:99991231\r\n", "DURATION:P999999W\r\n",
    "EXDATE:2027\r\n", "RECURRENCE-ID;VALUE=DATE:20270101\r\n", "\u{FEFF}", "\u{FF}",
  ].map { Array($0.utf8) }

  static func mutate(_ bytes: [UInt8], _ rng: inout Seeded) -> [UInt8] {
    var out = bytes
    for _ in 0..<Int.random(in: 1...8, using: &rng) {
      let at = Int.random(in: 0...out.count, using: &rng)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0 where at < out.count: out[at] = UInt8.random(in: 0...255, using: &rng)
      case 1 where at < out.count:
        out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...40, using: &rng)))
      case 2: out.insert(contentsOf: pieces.randomElement(using: &rng)!, at: at)
      default:
        let from = Int.random(in: 0...out.count, using: &rng)
        let run = out[from..<min(out.count, from + Int.random(in: 1...200, using: &rng))]
        out.insert(contentsOf: run, at: at)
      }
    }
    return out
  }

  @Test(arguments: ICalendarFixtures.names)
  func damagedFixturesAreReadSafely(_ name: String) throws {
    let original = try ICalendarFixtures.bytes(name)
    var rng = Seeded(
      state: UInt64(truncatingIfNeeded: name.utf8.reduce(5545) { $0 &* 31 &+ Int($1) }))
    for _ in 0..<100 {
      let file = ICalendarFile.parse(Self.mutate(original, &rng))
      #expect(file.warnings.count <= 51)
      _ = ICalendarDaysOff([file], from: day("2026-01-01"), through: day("2027-12-31"))
      // Runaway expansion shows in the output: at most one occurrence per day and event.
      let occurrences = file.occurrences(from: day("2026-01-01"), through: day("2027-12-31"))
      #expect(occurrences.count <= file.events.count * 730, "\(name)")
    }
  }
}
