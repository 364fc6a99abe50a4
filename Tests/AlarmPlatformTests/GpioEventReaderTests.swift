import AlarmCore
import AlarmPlatform
import Glibc
import Testing

private let ms: UInt64 = 1_000_000

@Suite struct GpioEventReaderTests {
  @Test func decodesEventsFromAPipe() throws {
    let (r, w) = InputFixture.pipe()
    defer { close(r) }
    var reader = GpioEventReader(fd: r)
    #expect(try reader.read().isEmpty)  // nothing yet: EAGAIN, not a block
    InputFixture.write(
      w,
      InputFixture.gpioEvent(ns: 1000 * ms, rising: true, seqno: 1)
        + InputFixture.gpioEvent(ns: 1200 * ms, rising: false, seqno: 2, lineSeqno: 2))
    let got = try reader.read()
    #expect(
      got == [
        .event(
          GpioLineEvent(
            timestampNanoseconds: 1000 * ms, edge: .rising, offset: 17, seqno: 1, lineSeqno: 1)),
        .event(
          GpioLineEvent(
            timestampNanoseconds: 1200 * ms, edge: .falling, offset: 17, seqno: 2, lineSeqno: 2)),
      ])
    close(w)
    #expect(try reader.read() == [.closed])
  }

  @Test func partialReadsAreBuffered() throws {
    let (r, w) = InputFixture.pipe()
    defer { close(r) }
    defer { close(w) }
    var reader = GpioEventReader(fd: r)
    let bytes = InputFixture.gpioEvent(ns: 5 * ms, rising: true, seqno: 1)
    InputFixture.write(w, Array(bytes[0..<13]))
    #expect(try reader.read().isEmpty)
    InputFixture.write(
      w,
      Array(bytes[13...])
        + Array(
          InputFixture.gpioEvent(
            ns: 6 * ms, rising: false, seqno: 2)[0..<47]))
    #expect(try reader.read().count == 1)
  }

  @Test func seqnoGapIsReportedBeforeTheEventAfterIt() {
    var d = GpioEventDecoder()
    let got = d.feed(
      InputFixture.gpioEvent(ns: 1, rising: true, seqno: 1)
        + InputFixture.gpioEvent(ns: 2, rising: false, seqno: 5))
    #expect(got.count == 3)
    #expect(got[1] == .dropped(count: 3))
    // Lost before the first read too (the buffer overflowed at start-up).
    var late = GpioEventDecoder()
    #expect(
      late.feed(InputFixture.gpioEvent(ns: 9, rising: true, seqno: 3)).first
        == .dropped(count: 2))
    var baseline = GpioEventDecoder(firstSeqno: nil)
    #expect(baseline.feed(InputFixture.gpioEvent(ns: 9, rising: true, seqno: 40)).count == 1)
  }

  @Test func unknownEventIdsAreSkippedWithoutLosingFraming() {
    var bad = InputFixture.gpioEvent(ns: 1, rising: true, seqno: 1)
    bad[8] = 9  // id field: not rising (1) or falling (2)
    var d = GpioEventDecoder()
    let got = d.feed(bad + InputFixture.gpioEvent(ns: 2, rising: false, seqno: 2))
    #expect(got.count == 1)  // no gap: the skipped record still counts in seqno
    if case .event(let e) = got.last { #expect(e.edge == .falling) } else { Issue.record() }
  }

  @Test func fifoDrivesThePressLogicThroughToActions() throws {
    // The path a real line takes: fd -> reader -> detector -> outcome.
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    let path = dir + "/line"
    InputFixture.mkfifo(path)
    let r = open(path, O_RDONLY | O_NONBLOCK)
    let w = open(path, O_WRONLY)
    defer { close(r) }
    var reader = GpioEventReader(fd: r)
    var detector = PressDetector(longPress: .milliseconds(1500))
    let actions = PressActions()
    var outcomes: [PressOutcome] = []
    func drain() throws {
      for case .event(let e) in try reader.read() {
        if let kind = detector.edge(e.pressEdge, at: e.timestampNanoseconds) {
          outcomes.append(actions.outcome(of: kind, during: .ringing))
        }
      }
    }
    // A short press, read late (after the threshold would have passed).
    InputFixture.write(w, InputFixture.gpioEvent(ns: 10_000 * ms, rising: true, seqno: 1))
    InputFixture.write(w, InputFixture.gpioEvent(ns: 10_300 * ms, rising: false, seqno: 2))
    try drain()
    #expect(detector.threshold(now: 13_000 * ms) == nil)
    // A hold: long at the threshold, before the release arrives.
    InputFixture.write(w, InputFixture.gpioEvent(ns: 20_000 * ms, rising: true, seqno: 3))
    try drain()
    #expect(detector.deadline == 21_500 * ms)
    if let kind = detector.threshold(now: 21_500 * ms) {
      outcomes.append(actions.outcome(of: kind, during: .ringing))
    }
    InputFixture.write(w, InputFixture.gpioEvent(ns: 23_000 * ms, rising: false, seqno: 4))
    try drain()
    #expect(outcomes == [.snooze, .stop])
    close(w)
  }
}
