import AlarmCore
import AlarmPlatform
import CShim
import Glibc
import Testing

/// The buzzer's GPIO output line and its beeping, through a FIFO standing in for the chip:
/// it receives the same `struct gpio_v2_line_values` records GPIO_V2_LINE_SET_VALUES_IOCTL
/// takes on a real line.
@Suite struct OutputBuzzerTests {
  @Test func outputRequestMatchesTheKernelHeaderLayout() {
    var reference = [UInt8](repeating: 0xEE, count: Int(CSHIM_GPIO_V2_LINE_REQUEST_SIZE))
    reference.withUnsafeMutableBytes { raw in
      cshim_gpio_reference_request(
        raw.baseAddress, 18, "alarmclock-buzzer", UInt64(CSHIM_GPIO_V2_LINE_FLAG_OUTPUT), 0, 0)
    }
    #expect(GpioOutputLine.requestBytes(offset: 18, consumer: "alarmclock-buzzer") == reference)
  }

  @Test func valuesSetBitZeroUnderItsMask() {
    let high = GpioOutputLine.valuesBytes(true)
    #expect(high.count == 16)
    #expect(high[0] == 1 && high[8] == 1)
    let low = GpioOutputLine.valuesBytes(false)
    #expect(low[0] == 0 && low[8] == 1)
  }

  @Test func aPatternIsBurstsOfBeepsThenAPause() {
    let steps = Buzzer.Pattern().steps
    #expect(steps.map(\.high) == [true, false, true, false, true, false, true, false])
    #expect(steps.map(\.length).suffix(2) == [.milliseconds(100), .milliseconds(600)])
  }

  @Test func aFifoLineNeedsAnOffset() {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    InputFixture.mkfifo(dir + "/chip")
    #expect(throws: InputError.self) {
      try GpioOutputLine.open(chip: dir + "/chip", line: .name("GPIO18"))
    }
  }

  @Test func theBuzzerBeepsOnTheLoopsTimerUntilStopped() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    InputFixture.mkfifo(dir + "/chip")
    let reader = open(dir + "/chip", O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    let line = try GpioOutputLine.open(chip: dir + "/chip", line: .offset(18))
    let loop = try EventLoop()
    let pattern = Buzzer.Pattern(
      beeps: 2, on: .milliseconds(20), off: .milliseconds(20), pause: .milliseconds(60))
    let buzzer = try Buzzer(line: line, loop: loop, pattern: pattern, log: { _, _ in })
    var values: [Bool] = []
    func drain() {
      var record = [UInt8](repeating: 0, count: 16)
      while record.withUnsafeMutableBytes({ read(reader, $0.baseAddress, 16) }) == 16 {
        #expect(record[8] == 1)  // the mask: our only line
        values.append(record[0] == 1)
      }
    }
    buzzer.start()
    #expect(buzzer.isSounding)
    let deadline = Clock.monotonic.now() + .seconds(20)
    while values.count < 9 && Clock.monotonic.now() < deadline {
      _ = try loop.runOnce(timeout: .milliseconds(50))
      drain()
    }
    // Two bursts and the start of a third: on, off, on, pause, on, ...
    #expect(Array(values.prefix(9)) == [true, false, true, false, true, false, true, false, true])
    buzzer.stop()
    drain()
    #expect(values.last == false && !buzzer.isSounding)
    let count = values.count
    _ = try loop.runOnce(timeout: .milliseconds(150))
    drain()
    #expect(values.count == count)  // silent once stopped
    buzzer.close()
  }
}
