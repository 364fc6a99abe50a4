import AlarmCore
import Testing

@Suite struct StateCodecTests {
  static let sample: ServiceState = {
    var s = ServiceState(
      lastChecked: Instant(seconds: 1_764_657_900), highWater: Instant(seconds: 1_764_658_000))
    s.session = RingSession(
      alarmID: "work", firing: Instant(seconds: 1_764_657_900),
      started: Instant(seconds: 1_764_657_901),
      periodStart: Instant(seconds: 1_764_658_440), snoozeUntil: Instant(seconds: 1_764_658_980),
      snoozeCount: 2)
    s.marks.skipNext["gym"] = LocalDate(year: 2026, month: 12, day: 3)
    s.marks.oneOffs["nap"] = OneOffMark(
      armedAt: Instant(seconds: 1_764_600_000), fingerprint: "14:30|-")
    s.marks.oneOffs["trip"] = OneOffMark(
      armedAt: Instant(seconds: 1_764_600_000), doneAt: Instant(seconds: 1_764_650_000),
      fingerprint: "05:10|2026-12-02")
    s.history = [
      HistoryEntry(
        kind: .missed, alarmID: "gym", label: nil, firing: Instant(seconds: 1_764_650_000),
        at: Instant(seconds: 1_764_657_000), more: 4),
      HistoryEntry(
        kind: .rung, alarmID: "work", label: "Work \"早\"\n",
        firing: Instant(seconds: 1_764_657_900),
        at: Instant(seconds: 1_764_657_901)),
    ]
    return s
  }()

  @Test func roundTripIsExactAndStable() throws {
    let bytes = StateCodec.encode(Self.sample)
    #expect(try StateCodec.decode(bytes) == Self.sample)
    #expect(StateCodec.encode(try StateCodec.decode(bytes)) == bytes)
    #expect(try StateCodec.decode(StateCodec.encode(ServiceState())) == ServiceState())
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasSuffix("}\n"))
    #expect(text.contains("\"snooze_count\": 2"))
    #expect(text.contains("\"skip_next\": {\n    \"gym\": \"2026-12-03\"\n  }"))
    // Sorted keys: "high_water" before "history" before "last_checked" ... "version" last.
    let keys = [
      "high_water", "history", "last_checked", "one_offs", "session", "skip_next", "version",
    ]
    let positions = keys.map { text.firstRange(of: "\n  \"\($0)\"")?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
  }

  func rejects(
    _ text: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let s = try StateCodec.decode(Array(text.utf8))
      Issue.record("accepted: \(s)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
    }
  }

  @Test func rejectsMalformedFiles() {
    rejects("", "unexpected end of input")
    rejects("garbage", "invalid JSON at byte 0")
    rejects(#"{"version": 1, "history": ["#, "unexpected end of input")
    rejects("[1]", "must be a JSON object")
    rejects(#"{"version": 2}"#, "version: unsupported version 2 (this build reads 1)")
    rejects(#"{"version": "1"}"#, "version: must be an integer from 0 to 2147483647, not a string")
    rejects(#"{}"#, "version: is missing")
    rejects(#"{"version": 1, "last_checked": 1e400}"#, "number out of range")
    rejects(
      #"{"version": 1, "last_checked": 99999999999999999999}"#,
      "last_checked: must be a number of seconds from 0 to 253402300799")
    rejects(#"{"version": 1, "last_checked": -5}"#, "last_checked: must be an integer from 0")
    // Fractions are milliseconds (a snooze end counted from a press); negative ones are not.
    rejects(#"{"version": 1, "last_checked": -1.5}"#, "last_checked: must be a number of seconds")
    rejects(#"{"version": 1, "last_checked": NaN}"#, "invalid JSON")
    rejects(#"{"version": 1, "lastChecked": 5}"#, "lastChecked: unknown field")
    rejects(#"{"version": 1, "version": 1}"#, "duplicate key")
    rejects(
      #"{"version": 1, "session": {"alarm": "a b", "firing": 1, "started": 1, "#
        + #""period_start": 1, "snooze_count": 0}}"#,
      "session.alarm: bad alarm id 'a b'")
    rejects(
      #"{"version": 1, "session": {"alarm": "w", "firing": 1, "started": 1, "#
        + #""period_start": 1, "snooze_count": -1}}"#,
      "session.snooze_count: must be an integer from 0 to 100000")
    rejects(#"{"version": 1, "session": {"alarm": "w"}}"#, "session.firing: is missing")
    rejects(#"{"version": 1, "session": 7}"#, "session: must be an object, not a number")
    rejects(#"{"version": 1, "skip_next": {"w": "2026-02-30"}}"#, "skip_next.w: must be a date")
    rejects(#"{"version": 1, "skip_next": {"../x": "2026-02-03"}}"#, "bad alarm id '../x'")
    rejects(
      #"{"version": 1, "one_offs": {"n": {"armed_at": 1}}}"#, "one_offs.n.fingerprint: is missing")
    rejects(
      #"{"version": 1, "history": [{"kind": "exploded", "alarm": "w", "firing": 1, "at": 1}]}"#,
      "history[0].kind: unknown kind 'exploded'")
    rejects(
      #"{"version": 1, "history": [{"kind": "rung", "alarm": "w\u0000", "firing": 1, "at": 1}]}"#,
      "bad alarm id 'w\\0'")
    rejects(String(repeating: "[", count: 100_000), "nested deeper than 64")
    rejects("{\"version\": 1, \"x\": \"\u{1}\"}", "control character")
    rejects(String(repeating: " ", count: StateCodec.maxFileSize + 1), "larger than")
    #expect(throws: StateDecodeError.self) { try StateCodec.decode([0x7b, 0xff, 0xfe, 0x7d]) }
    #expect(throws: StateDecodeError.self) {
      try StateCodec.decode(
        Array(
          (#"{"version":1,"history":[{"kind":"rung","alarm":"w","label":"\#u{FF}","#
            + #""firing":1,"at":1}]}"#).utf8) + [0xC3])
    }
  }

  /// Found by the `state` fuzz target: a key from the file went into the
  /// reason unescaped, so a corrupt file could put a newline (a fake log
  /// line) or a megabyte of key into the log.
  @Test func rejectionReasonsAreOneShortLine() {
    rejects(#"{"version": 1, "skip_nex\#u{7F}t": {}}"#, #"skip_nex\u{7F}t: unknown field"#)
    rejects(#"{"version": 1, "a\nb": 1}"#, #"a\nb: unknown field"#)
    rejects(#"{"version": 1, "a\nb": 1, "a\nb": 2}"#, #"duplicate key "a\nb""#)
    let long = String(repeating: "k", count: 10_000)
    rejects(#"{"version": 1, ""# + long + #"": 1}"#, String(repeating: "k", count: 80) + "...:")
  }

  /// Every truncation and thousands of byte mutations of a real file:
  /// decoded or rejected, never a crash.
  @Test func mutationsNeverCrash() {
    let good = StateCodec.encode(Self.sample)
    for n in 0..<good.count {
      _ = try? StateCodec.decode(Array(good.prefix(n)))
    }
    var rng = SplitMix(seed: 42)
    let alphabet = Array("{}[]\",:0123456789-.eE \\u\ntrufalsn".utf8) + [0x00, 0xff, 0xc3]
    var accepted = 0
    for _ in 0..<3000 {
      var bytes = good
      for _ in 0..<(1 + Int(rng.next() % 3)) {
        let i = Int(rng.next() % UInt64(bytes.count))
        switch rng.next() % 3 {
        case 0: bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
        case 1: bytes.remove(at: i)
        default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
        }
      }
      if (try? StateCodec.decode(bytes)) != nil { accepted += 1 }
    }
    #expect(accepted < 3000)
  }
}
