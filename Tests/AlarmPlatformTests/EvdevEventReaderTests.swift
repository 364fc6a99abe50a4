import AlarmCore
import AlarmPlatform
import CShim
import Glibc
import Testing

private let ms: UInt64 = 1_000_000
private let keyStop: UInt16 = 128

@Suite struct EvdevEventReaderTests {
  @Test func inputEventIs24BytesOn64Bit() {
    #if _pointerBitWidth(_64)
      #expect(CSHIM_INPUT_EVENT_SIZE == 24)
    #endif
    #expect(
      InputFixture.inputEvent(sec: 1, usec: 2, type: 1, code: 2, value: 3).count
        == Int(CSHIM_INPUT_EVENT_SIZE))
  }

  @Test func decodesPressAndReleaseWithTimestampsAndIgnoresAutorepeat() throws {
    let (r, w) = InputFixture.pipe()
    defer { close(r) }
    var reader = EvdevEventReader(fd: r)
    #expect(try reader.read().isEmpty)
    InputFixture.write(
      w,
      InputFixture.key(keyStop, 1, ms: 7_000) + InputFixture.key(keyStop, 2, ms: 7_250)
        + InputFixture.key(keyStop, 2, ms: 7_283) + InputFixture.key(keyStop, 0, ms: 7_300))
    #expect(
      try reader.read() == [
        .key(EvdevKeyEvent(code: keyStop, edge: .down, timestampNanoseconds: 7_000 * ms)),
        .key(EvdevKeyEvent(code: keyStop, edge: .up, timestampNanoseconds: 7_300 * ms)),
      ])
    close(w)
    #expect(try reader.read() == [.closed])
  }

  @Test func synDroppedDiscardsUntilTheNextReport() {
    var d = EvdevEventDecoder()
    let dropped = InputFixture.inputEvent(
      sec: 1, usec: 0, type: UInt16(CSHIM_EV_SYN), code: UInt16(CSHIM_SYN_DROPPED), value: 0)
    let stale = InputFixture.inputEvent(
      sec: 1, usec: 1, type: UInt16(CSHIM_EV_KEY), code: keyStop, value: 0)
    let report = InputFixture.inputEvent(
      sec: 1, usec: 2, type: UInt16(CSHIM_EV_SYN), code: UInt16(CSHIM_SYN_REPORT), value: 0)
    let got = d.feed(dropped + stale + report + InputFixture.key(57, 1, ms: 2_000))
    #expect(
      got == [
        .dropped, .key(EvdevKeyEvent(code: 57, edge: .down, timestampNanoseconds: 2_000 * ms)),
      ])
  }

  @Test func otherEventTypesAndPartialRecordsAreHandled() {
    var d = EvdevEventDecoder()
    let rel = InputFixture.inputEvent(sec: 1, usec: 0, type: 2, code: 0, value: 5)  // EV_REL
    let press = InputFixture.key(keyStop, 1, ms: 1_500)
    #expect(d.feed(rel + press[0..<10]).isEmpty)
    #expect(d.feed(press[10...]).count == 1)
  }

  @Test func garbageTimestampsSaturate() {
    var d = EvdevEventDecoder()
    let neg = InputFixture.inputEvent(sec: -5, usec: -1, type: 1, code: 30, value: 1)
    let huge = InputFixture.inputEvent(sec: .max, usec: 5, type: 1, code: 30, value: 0)
    #expect(
      d.feed(neg + huge) == [
        .key(EvdevKeyEvent(code: 30, edge: .down, timestampNanoseconds: 0)),
        .key(EvdevKeyEvent(code: 30, edge: .up, timestampNanoseconds: .max)),
      ])
  }

  @Test func keyboardHoldThroughPressLogicIsLongAtThreshold() throws {
    let (r, w) = InputFixture.pipe()
    defer { close(r) }
    defer { close(w) }
    var reader = EvdevEventReader(fd: r)
    var detector = PressDetector(longPress: .milliseconds(1500))
    var kinds: [PressKind] = []
    InputFixture.write(
      w, InputFixture.key(keyStop, 1, ms: 100_000) + InputFixture.key(keyStop, 2, ms: 100_250))
    for case .key(let k) in try reader.read() {
      if let kind = detector.edge(k.edge, at: k.timestampNanoseconds) { kinds.append(kind) }
    }
    #expect(detector.deadline == 101_500 * ms)
    if let kind = detector.threshold(now: 101_500 * ms) { kinds.append(kind) }
    #expect(kinds == [.long])
  }
}

/// The one key table (AlarmCore's `KeyCodes`) as the input code uses it for log names.
@Suite struct KeyCodesNamingTests {
  @Test func namesAndCodesFromTheKernelHeader() {
    #expect(KeyCodes.byName["KEY_STOP"] == 128)
    #expect(KeyCodes.byName["KEY_POWER"] == 116)
    #expect(KeyCodes.byName["BTN_0"] == 256)
    #expect(KeyCodes.byName["KEY_HANGUEL"] == 122)  // an alias
    #expect(KeyCodes.byName["KEY_NOPE"] == nil)
    #expect(KeyCodes.name(for: 122) == "KEY_HANGEUL")  // the first definition wins
    #expect(KeyCodes.describe(128) == "KEY_STOP")
    #expect(KeyCodes.describe(0x2fe) == "key 766")
  }
}
