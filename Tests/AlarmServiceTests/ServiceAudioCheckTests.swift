import AlarmAudio
import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// The audio check before an alarm, in-process with the test's clock: when it runs, what
/// it shows, the hook, and the buzzer (a FIFO standing in for the GPIO chip).
@Suite(.serialized) struct ServiceAudioCheckTests {
  typealias H = ServiceHarness

  static func config(device: String, extra: String = "") -> String {
    """
    [settings]
    timezone = "UTC"

    [audio]
    device = "\(device)"
    \(extra)

    [defaults]
    ramp = "0s"
    snooze = "3s"
    ring_for = "30s"
    \(H.alarm("wake", "07:00"))
    """
  }

  func audio(_ h: H) -> InputStatus? {
    h.service.statusReport(now: h.clock.now).inputs.first { $0.name == "audio" }
  }

  func checked(_ h: H, _ match: (AudioCheck) -> Bool) throws -> Bool {
    try h.turn { h.ringerSaw { if case .checked(let c) = $0 { match(c) } else { false } } }
  }

  @Test func theDevicesAreCheckedAMinuteAheadAndNotAgainWhenWell() throws {
    let h = try H(config: Self.config(device: "null"), at: H.at(6, 0))
    #expect(h.service.ring.watch.checkAt == H.at(6, 59))
    h.clock.now = H.at(6, 59)
    h.service.audioCheckDue()
    try #require(try checked(h) { $0.device == "null" && !$0.hasFailures }, "\(h.log)")
    // All well: the next look at the device is the prepare point.
    #expect(h.service.ring.watch.checkAt == nil)
    #expect(audio(h)?.detail == "ready on null")
    #expect(h.plan.deadline == H.at(6, 59, 58) && h.plan.isPreparePoint)
  }

  @Test func aMissingDeviceIsShownHookedOnceRecheckedAndTheBuzzerBeepsAtTheRing() throws {
    let dir = H.tempDirectory()
    let chip = dir + "/chip"
    let hookOut = dir + "/hook.out"
    let extra = """
      buzzer = { chip = "\(chip)", line = 18 }

      [hooks]
      audio_failed = ["/bin/sh", "-c", "echo $ALARM_ID $ALARM_AUDIO_DEVICE $ALARM_AUDIO_FAILED >> '\(hookOut)'"]
      """
    guard mkfifo(chip, 0o600) == 0 else { throw HarnessError("mkfifo") }
    let reader = open(chip, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    defer { close(reader) }
    let h = try H(
      config: Self.config(device: "hw:NoSuchCard", extra: extra), at: H.at(6, 59), dir: dir)
    // Under a minute ahead at start-up: checked at once.
    try #require(try checked(h) { $0.device == nil && $0.hasFailures }, "\(h.log)")
    #expect(h.log.contains("audio check: 'hw:NoSuchCard' cannot be opened; failover: the buzzer"))
    #expect(audio(h)?.available == false)
    #expect(audio(h)?.detail.hasSuffix("failover: the buzzer (\(chip) line 18 (FIFO))") == true)
    func hookLines() -> [String] {
      ((try? FileSystem.readText(hookOut)) ?? "").split(separator: "\n").map(String.init)
    }
    try #require(try h.turn { !hookLines().isEmpty }, "no audio_failed hook:\n\(h.log)")
    #expect(hookLines() == ["wake buzzer hw:NoSuchCard"])
    // Checked again every 15 s while it is missing; the hook does not run again.
    #expect(h.service.ring.watch.checkAt == H.at(6, 59, 15))
    h.clock.now = H.at(6, 59, 15)
    h.service.audioCheckDue()
    let before = h.events.count
    try #require(try h.turn { h.events.count > before })
    #expect(hookLines().count == 1)
    // The ring: the buzzer beeps at once, its line goes high and low through the FIFO.
    h.clock.now = H.at(7, 0)
    h.service.timeReached(.expired(1))
    try #require(h.service.engine.state.session != nil)
    var values: [UInt8] = []
    try #require(
      try h.turn {
        var record = [UInt8](repeating: 0, count: 16)
        while record.withUnsafeMutableBytes({ read(reader, $0.baseAddress, 16) }) == 16 {
          values.append(record[0])
        }
        return values.filter { $0 == 1 }.count >= 2 && values.filter { $0 == 0 }.count >= 2
      }, "the buzzer did not beep: \(values)\n\(h.log)")
    let buzzer = h.service.statusReport(now: h.clock.now).inputs.first { $0.name == "buzzer" }
    #expect(buzzer?.detail.hasSuffix(", beeping") == true)
    // Stop: the buzzer stops with the ring, its line low.
    let reply = try h.request(#"{"cmd":"stop"}"#)
    #expect(reply.contains(#""ok":true"#))
    #expect(h.service.ring.watch.buzzer?.isSounding == false, "\(reply)\n\(h.log)")
    var record = [UInt8](repeating: 0, count: 16)
    var last: UInt8 = 1
    while record.withUnsafeMutableBytes({ read(reader, $0.baseAddress, 16) }) == 16 {
      last = record[0]
    }
    #expect(last == 0)
  }
}
