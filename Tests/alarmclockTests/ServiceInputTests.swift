import AudioTestSupport
import CShim
import Foundation
import Testing

/// Physical input end to end: the real binary reads `struct input_event` and
/// `struct gpio_v2_line_event` records (built by the shim from the kernel headers) from
/// FIFOs configured as an `[[input]]` device and a `[button]` chip — the same readers and
/// press logic a keyboard or a GPIO line request go through — and snoozes and stops a real
/// ring recorded from the PulseAudio null sink.
@Suite(.serialized, .enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
struct ServiceInputTests {
  typealias Ring = ServiceRingTests

  @Test func keyPressSnoozesAndAHoldStopsAtTheThreshold() throws {
    let dir = try TempDir("service-input")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let keys = dir.file("keys")
    let missing = dir.file("by-id/usb-Remote-event-kbd")
    #expect(mkfifo(keys, 0o600) == 0)
    let firing = TestClock.firing(in: 4)
    let extra = """

      [[input]]
      device = "\(keys)"
      snooze = ["KEY_SPACE"]
      stop = ["KEY_STOP"]
      long_press = "1s"

      [[input]]
      device = "\(missing)"
      stop = ["KEY_STOP"]
      """
    let service = try ServiceProcess(
      dir: dir,
      config: try Ring.config(
        time: firing.text, sound: sound, extra: extra, sink: ServiceSink.input))
    defer { service.terminate() }

    // Status: the FIFO is read, the missing device is named with the fix.
    let inputs = try Self.inputs(service)
    #expect(inputs["input \(keys)"]?.available == true)
    #expect(inputs["input \(keys)"]?.detail.contains("FIFO event stream") == true)
    #expect(inputs["input \(missing)"]?.available == false)
    #expect(inputs["input \(missing)"]?.detail.contains("not found") == true)
    #expect(service.log.contains("input \(missing) unavailable: input device \(missing) not found"))

    // Non-blocking: fails (ENXIO) instead of hanging if the service is not reading it.
    let fifo = open(keys, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(keys) open:\n\(service.log)")
    defer { close(fifo) }
    let rec = try SinkRecorder(directory: dir.path, sink: ServiceSink.input)
    try service.waitForLog("ringing 'wake'", timeout: 10)
    rec.record(seconds: 1.5)

    // A short press, 100 ms, with an autorepeat in between: snooze.
    Self.write(fifo, Self.key(57, 1))
    usleep(50_000)
    Self.write(fifo, Self.key(57, 2))
    usleep(50_000)
    let snoozeAt = realtimeNow()
    Self.write(fifo, Self.key(57, 0))
    try service.waitForLog("short press: snooze", timeout: 3)
    #expect(try service.sessionState() == "snoozed")
    let againAt = snoozeAt + 3  // the press plus the snooze, to the millisecond
    try service.waitForLog("snooze over", timeout: 8)
    rec.record(seconds: 1.0)
    #expect(try service.sessionState() == "ringing")

    // Held, with autorepeats every 100 ms and no release: stop at the 1 s threshold.
    let holdAt = realtimeNow()
    Self.write(fifo, Self.key(57, 1))
    for _ in 0..<15 {
      usleep(100_000)
      Self.write(fifo, Self.key(57, 2))
    }
    try service.waitForLog("long press: stop", timeout: 3)
    #expect(try service.sessionState() == nil)
    rec.record(seconds: 0.5)
    Self.write(fifo, Self.key(57, 0))  // the late release does nothing more
    let stopAt = holdAt + 1.0
    let samples = rec.finish(through: stopAt + 0.6)
    #expect(Ring.sounding(samples, rec, from: firing.unix + 0.1, to: snoozeAt - 0.05))
    #expect(Ring.silent(samples, rec, from: snoozeAt + 0.1, to: againAt - 0.1))
    #expect(Ring.sounding(samples, rec, from: againAt + 0.3, to: stopAt - 0.05))
    #expect(Ring.silent(samples, rec, from: stopAt + 0.1, to: stopAt + 0.6))

    // The missing device plugged in later is picked up by the hot-plug watch.
    _ = mkdir(dir.file("by-id"), 0o755)
    #expect(mkfifo(missing, 0o600) == 0)
    try waitFor("the late device to be read", timeout: 5) {
      try Self.inputs(service)["input \(missing)"]?.available == true
    }
    #expect(service.terminate() == 0)
  }

  @Test func gpioFifoButtonSnoozesStopsAndReportsASeqnoGap() throws {
    let dir = try TempDir("service-input")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let chip = dir.file("gpio")
    #expect(mkfifo(chip, 0o600) == 0)
    let firing = TestClock.firing(in: 4)
    let extra = """

      [[button]]
      chip = "\(chip)"
      line = 17
      long_press = "1s"

      [[button]]
      chip = "gpiochip99"
      line = "GPIO27"
      on_short_press = "stop"
      """
    let service = try ServiceProcess(
      dir: dir,
      config: try Ring.config(
        time: firing.text, sound: sound, extra: extra, sink: ServiceSink.input))
    defer { service.terminate() }
    let inputs = try Self.inputs(service)
    #expect(inputs["button \(chip) line 17"]?.available == true)
    #expect(inputs["button gpiochip99 line GPIO27"]?.available == false)
    #expect(inputs["button gpiochip99 line GPIO27"]?.detail.contains("gpiodetect") == true)

    let fifo = open(chip, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(chip) open:\n\(service.log)")
    defer { close(fifo) }
    let rec = try SinkRecorder(directory: dir.path, sink: ServiceSink.input)
    try service.waitForLog("ringing 'wake'", timeout: 10)
    rec.record(seconds: 1.0)
    Self.write(fifo, Self.gpio(rising: true, seqno: 1))
    usleep(100_000)
    let snoozeAt = realtimeNow()
    Self.write(fifo, Self.gpio(rising: false, seqno: 2))
    try service.waitForLog("short press: snooze", timeout: 3)
    #expect(try service.sessionState() == "snoozed")
    try service.waitForLog("snooze over", timeout: 8)
    rec.record(seconds: 1.0)

    // Two events lost (seqno 3 and 4): logged; the press after the gap still counts.
    let holdAt = realtimeNow()
    Self.write(fifo, Self.gpio(rising: true, seqno: 5))
    try service.waitForLog("2 events lost", timeout: 3)
    try service.waitForLog("long press: stop", timeout: 3)
    #expect(try service.sessionState() == nil)
    rec.record(seconds: 0.6)
    let samples = rec.finish(through: holdAt + 1.5)
    let againAt = snoozeAt + 3  // the press plus the snooze, to the millisecond
    #expect(Ring.silent(samples, rec, from: snoozeAt + 0.1, to: againAt - 0.1))
    #expect(Ring.sounding(samples, rec, from: againAt + 0.3, to: holdAt + 0.95))
    #expect(Ring.silent(samples, rec, from: holdAt + 1.1, to: holdAt + 1.5))
    #expect(service.terminate() == 0)
  }

  @Test func idlePressRunsTheHookAndAReloadMovesTheInput() throws {
    let dir = try TempDir("service-input")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let record = dir.file("idle.log")
    let script = dir.file("idle.sh")
    try """
    #!/bin/sh
    echo "$ALARM_EVENT|$ALARM_PRESS|$ALARM_ID" >> '\(record)'
    """.write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    let first = dir.file("keys-1")
    let second = dir.file("keys-2")
    #expect(mkfifo(first, 0o600) == 0 && mkfifo(second, 0o600) == 0)
    func config(_ device: String) throws -> String {
      try Ring.config(
        time: "03:33", sound: sound,
        extra: """

          [[input]]
          device = "\(device)"
          snooze = ["KEY_SPACE"]
          on_idle_press = "hook"

          [hooks]
          idle_press = ["\(script)"]
          """)
    }
    let service = try ServiceProcess(dir: dir, config: try config(first))
    defer { service.terminate() }
    let fifo = open(first, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(first) open:\n\(service.log)")
    defer { close(fifo) }
    // Nothing rings: a short press runs the idle_press hook, a hold a long one.
    Self.write(fifo, Self.key(57, 1) + Self.key(57, 0))
    try waitFor("the idle_press hook", timeout: 5) {
      ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "") == "idle_press|short|\n"
    }
    Self.write(fifo, Self.key(57, 1))
    try waitFor("the long idle_press hook", timeout: 5) {
      ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").hasSuffix("idle_press|long|\n")
    }
    Self.write(fifo, Self.key(57, 0))

    // An edit of the file moves the input to the other FIFO.
    try config(second).write(toFile: service.configPath, atomically: true, encoding: .utf8)
    try waitFor("the input on the new FIFO", timeout: 5) {
      try Self.inputs(service)["input \(second)"]?.available == true
    }
    #expect(try Self.inputs(service)["input \(first)"] == nil)
    #expect(service.terminate() == 0)
  }

  /// `on_idle_press = "say_time"`: a press while nothing rings says the time and the next
  /// alarm through the device (real espeak-ng, recorded from the null sink); a ring that
  /// comes while it speaks silences the speech and rings as always.
  @Test(.enabled(if: PulseTestServer.available && SayTimeCommandTests.hasEspeak))
  func anIdlePressSaysTheTimeAndTheNextAlarm() throws {
    let dir = try TempDir("service-speech")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let keys = dir.file("keys")
    #expect(mkfifo(keys, 0o600) == 0)
    let config = try Ring.config(
      time: "03:33", sound: sound,
      extra: """

        [[input]]
        device = "\(keys)"
        snooze = ["KEY_SPACE"]
        on_idle_press = "say_time"

        [voice]
        language = "en"
        """, sink: ServiceSink.input)
    let recorder = try SinkRecorder(directory: dir.path, sink: ServiceSink.input)
    let service = try ServiceProcess(dir: dir, config: config)
    defer { service.terminate() }
    let fifo = open(keys, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(keys) open:\n\(service.log)")
    defer { close(fifo) }
    let pressed = realtimeNow()
    Self.write(fifo, Self.key(57, 1) + Self.key(57, 0))
    try waitFor("the sentence in the log", timeout: 10) {
      service.log.contains("speech: \"It's ") && service.log.contains("The next alarm is")
    }
    // A second press while it speaks does not start another sentence.
    Self.write(fifo, Self.key(57, 1) + Self.key(57, 0))
    try waitFor("the second press", timeout: 10) {
      service.log.contains("speech: already speaking")
    }
    // The sentence takes about five seconds; the recording must cover it.
    let samples = recorder.finish(through: pressed + 8, timeout: 30)
    let onset = Signal.onset(samples, threshold: 0.02, from: recorder.frameIndex(realtime: pressed))
    #expect(onset != nil, "nothing was heard after the press:\n\(service.log)")
    #expect(!service.log.contains("fallback"), "\(service.log)")
    #expect(service.terminate() == 0)
  }

  /// An alarm that comes while the device speaks: the speech goes (at the prepare point,
  /// two seconds ahead) and the alarm rings on time, as if nothing had been said.
  @Test(.enabled(if: PulseTestServer.available && SayTimeCommandTests.hasEspeak))
  func anAlarmSilencesTheSpeech() throws {
    let dir = try TempDir("service-speech-ring")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let keys = dir.file("keys")
    #expect(mkfifo(keys, 0o600) == 0)
    let firing = TestClock.firing(in: 6)
    let config = try Ring.config(
      time: firing.text, sound: sound,
      extra: """

        [[input]]
        device = "\(keys)"
        snooze = ["KEY_SPACE"]
        on_idle_press = "say_time"
        """, sink: ServiceSink.input)
    let service = try ServiceProcess(dir: dir, config: config)
    defer { service.terminate() }
    let fifo = open(keys, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(keys) open:\n\(service.log)")
    defer { close(fifo) }
    Self.write(fifo, Self.key(57, 1) + Self.key(57, 0))
    try service.waitForLog("ringing 'wake'", timeout: 20)
    try service.waitForLog("first frame on", timeout: 10)
    #expect(service.log.contains("saying the time"), "\(service.log)")
    // Silenced while being made or while being said, whichever it was by then.
    #expect(
      service.log.contains("speech: stopped for a ring")
        || service.log.contains("speech: dropped for a ring"), "\(service.log)")
    #expect(!service.log.contains("fallback"), "\(service.log)")
  }

  // MARK: Kernel records

  static func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
  }

  /// An EV_KEY event and its SYN_REPORT, stamped now on CLOCK_MONOTONIC (what evdev does
  /// once the service has set the device's clock).
  static func key(_ code: UInt16, _ value: Int32) -> [UInt8] {
    let ns = monotonicNanoseconds()
    let sec = Int64(ns / 1_000_000_000)
    let usec = Int64(ns % 1_000_000_000 / 1000)
    return inputEvent(sec, usec, UInt16(CSHIM_EV_KEY), code, value)
      + inputEvent(sec, usec, UInt16(CSHIM_EV_SYN), UInt16(CSHIM_SYN_REPORT), 0)
  }

  static func inputEvent(_ sec: Int64, _ usec: Int64, _ type: UInt16, _ code: UInt16, _ v: Int32)
    -> [UInt8]
  {
    var b = [UInt8](repeating: 0, count: Int(CSHIM_INPUT_EVENT_SIZE))
    b.withUnsafeMutableBytes {
      cshim_input_reference_event($0.baseAddress, sec, usec, type, code, v)
    }
    return b
  }

  /// A `struct gpio_v2_line_event` for line 17, stamped now on CLOCK_MONOTONIC.
  static func gpio(rising: Bool, seqno: UInt32) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: Int(CSHIM_GPIO_V2_LINE_EVENT_SIZE))
    let id = UInt32(
      rising ? CSHIM_GPIO_V2_LINE_EVENT_RISING_EDGE : CSHIM_GPIO_V2_LINE_EVENT_FALLING_EDGE)
    let ns = monotonicNanoseconds()
    b.withUnsafeMutableBytes {
      cshim_gpio_reference_event($0.baseAddress, ns, id, 17, seqno, seqno)
    }
    return b
  }

  static func write(_ fd: Int32, _ bytes: [UInt8]) {
    let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    #expect(n == bytes.count)
  }

  /// `status`'s inputs by name.
  static func inputs(_ service: ServiceProcess) throws -> [String: (
    available: Bool, detail: String
  )] {
    let list = try service.status()["inputs"] as? [[String: Any]] ?? []
    var out: [String: (available: Bool, detail: String)] = [:]
    for i in list {
      guard let name = i["name"] as? String else { continue }
      out[name] = (i["available"] as? Bool ?? false, i["detail"] as? String ?? "")
    }
    return out
  }
}
