import AlarmCore
import AudioTestSupport
import Glibc
import Testing

@testable import AlarmPlatform

private let ms: UInt64 = 1_000_000

@Suite struct InputPressSourceTests {
  @Test func gpioTimerFiredDrainsPendingEventsFirst() throws {
    // The loop was busy: the release (at 300 ms) is still unread when the
    // 1.5 s threshold timer is serviced. It must be a snooze, not a stop.
    let (r, w) = InputFixture.pipe()
    defer { close(w) }
    var source = GpioButtonSource(
      line: GpioLineRequest(descriptor: FileDescriptor(owning: r), chip: "test", offset: 17),
      binding: KeyBinding(code: 0))
    InputFixture.write(w, InputFixture.gpioEvent(ns: 50_000 * ms, rising: true, seqno: 1))
    #expect(try source.readable().isEmpty)
    #expect(source.deadline == 51_500 * ms)
    InputFixture.write(w, InputFixture.gpioEvent(ns: 50_300 * ms, rising: false, seqno: 2))
    let signals = try source.timerFired(now: 52_000 * ms)
    #expect(
      signals == [
        .press(
          InputPress(
            code: 17, kind: .short, actions: PressActions(), timestampNanoseconds: 50_300 * ms))
      ])
    #expect(source.deadline == nil)
  }

  @Test func gpioHoldIsLongAtTheThresholdAndGapsAreReported() throws {
    let (r, w) = InputFixture.pipe()
    defer { close(w) }
    var source = GpioButtonSource(
      line: GpioLineRequest(descriptor: FileDescriptor(owning: r), chip: "test", offset: 17),
      binding: KeyBinding(code: 0))
    InputFixture.write(w, InputFixture.gpioEvent(ns: 1_000 * ms, rising: true, seqno: 1))
    _ = try source.readable()
    let long = try source.timerFired(now: 2_500 * ms)
    #expect(long.count == 1)
    if case .press(let p) = long.first {
      #expect(p.kind == .long)
      #expect(p.actions.outcome(of: p.kind, during: .ringing) == .stop)
    }
    InputFixture.write(w, InputFixture.gpioEvent(ns: 9_000 * ms, rising: true, seqno: 4))
    #expect(try source.readable() == [.eventsLost(count: 2)])
    #expect(source.deadline == 10_500 * ms)  // the event after the gap starts a press
  }

  @Test func openingAButtonOnAMissingChipNamesTheChip() {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    let error = expectThrows(InputError.self) {
      _ = try GpioButtonSource.open(
        chip: "pinctrl-rp1", line: .name("GPIO17"), options: GpioLineRequestOptions(),
        binding: KeyBinding(code: 0), devDirectory: dir)
    }
    #expect(error == .chipNotFound("pinctrl-rp1", searched: dir + "/gpiochip*"))
  }

  @Test func aFifoChipIsTheLinesEventStream() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    InputFixture.mkfifo(dir + "/button")
    var source = try GpioButtonSource.open(
      chip: dir + "/button", line: .offset(17), options: GpioLineRequestOptions(),
      binding: KeyBinding(code: 0))
    #expect(source.line.isFifo && source.line.offset == 17)
    // Writers may come and go: the FIFO is open read-write, so no end of file.
    let w = open(dir + "/button", O_WRONLY)
    InputFixture.write(w, InputFixture.gpioEvent(ns: 1_000 * ms, rising: true, seqno: 1))
    close(w)
    #expect(try source.readable().isEmpty)
    let w2 = open(dir + "/button", O_WRONLY)
    defer { close(w2) }
    InputFixture.write(w2, InputFixture.gpioEvent(ns: 1_200 * ms, rising: false, seqno: 2))
    let signals = try source.readable()
    #expect(signals.count == 1)
    if case .press(let p) = signals.first { #expect(p.kind == .short && p.code == 17) }
    // A FIFO has no line names.
    let error = expectThrows(InputError.self) {
      _ = try GpioButtonSource.open(
        chip: dir + "/button", line: .name("GPIO17"), options: GpioLineRequestOptions(),
        binding: KeyBinding(code: 0))
    }
    #expect(error == .fifoLineName(fifo: dir + "/button", line: "GPIO17"))
  }

  @Test func evdevSourceOverAFifo() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    InputFixture.mkfifo(dir + "/event0")
    let device = try EvdevDevice(path: dir + "/event0", grab: false)
    let w = open(dir + "/event0", O_WRONLY)
    var source = EvdevKeySource(
      device: device,
      bindings: [KeyBinding(code: 128, actions: PressActions.stopOnly)])
    #expect(source.unsupportedCodes.isEmpty)
    InputFixture.write(
      w,
      InputFixture.key(30, 1, ms: 500) + InputFixture.key(128, 1, ms: 1_000)
        + InputFixture.key(128, 2, ms: 1_250) + InputFixture.key(128, 0, ms: 1_400))
    let signals = try source.readable()
    #expect(signals.count == 1)
    if case .press(let p) = signals.first {
      #expect(p.code == 128 && p.kind == .short)
      #expect(p.actions.outcome(of: p.kind, during: .snoozed) == .stop)
    }
    close(w)
    #expect(try source.readable().isEmpty)  // read-write: a writer leaving is no unplug
  }
}
