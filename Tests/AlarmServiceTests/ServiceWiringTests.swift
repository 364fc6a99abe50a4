import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// The service's wiring in-process: timer plan, ringer, inputs, control socket, config
/// reloads and the state file, each driven by the test (no process, no PulseAudio).
@Suite(.serialized) struct ServiceWiringTests {
  typealias H = ServiceHarness

  @Test func aFiringStartsARingAtThePlannedInstant() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 59))
    // First the prepare point, two seconds ahead, then the firing itself.
    #expect(h.plan.deadline == H.at(6, 59, 58) && h.plan.isPreparePoint)
    h.fireTimer()
    #expect(h.plan.deadline == H.at(7, 0) && !h.plan.isPreparePoint)
    #expect(h.service.engine.state.session == nil)
    h.fireTimer(late: .milliseconds(3))
    #expect(h.service.engine.state.session?.alarmID == "wake")
    #expect(h.service.engine.state.session?.periodStart == H.at(7, 0))
    try #require(
      try h.turn { h.ringerSaw { if case .firstFrame = $0 { true } else { false } } },
      "no first frame:\n\(h.log)")
    #expect(h.log.contains("ringing 'wake'"))
    // How late the sound came, against the scheduled instant (the VM tier and
    // bench/fire-accuracy read this line).
    #expect(h.log.contains("first frame on null "), "\(h.log)")
    // Auto-silence is planned at the end of ring_for.
    #expect(h.plan.deadline == H.at(7, 0, 30))
  }

  @Test func aKeyPressSnoozesAndAStopKeyStops() throws {
    let fifo = "keys"
    let extra = """
      [[input]]
      device = "KEYS"
      snooze = ["KEY_SPACE"]
      stop = ["KEY_STOP"]
      """
    let dir = H.tempDirectory()
    let h = try H(
      config: H.config(
        H.alarm("wake", "07:00"), extra: extra.replacing("KEYS", with: dir + "/" + fifo)),
      at: H.at(6, 59, 59), dir: dir,
      prepare: { _, dir in
        guard mkfifo(dir + "/keys", 0o600) == 0 else { throw HarnessError("mkfifo") }
      })
    let fd = open(dir + "/" + fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(fd >= 0, "the service does not read the FIFO:\n\(h.log)")
    defer { close(fd) }
    h.fireTimer()
    try #require(h.service.engine.state.session != nil)
    // Sounding before the press: a stop before the playback thread took the start
    // reports nothing.
    try #require(
      try h.turn { h.ringerSaw { if case .firstFrame = $0 { true } else { false } } },
      "no first frame:\n\(h.log)")

    func press(_ code: UInt16) {
      let t = PressInputs.monotonicNanoseconds()
      let bytes = EvdevBytes.key(code, 1, ns: t) + EvdevBytes.key(code, 0, ns: t + 80_000_000)
      _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
    press(57)  // KEY_SPACE
    try #require(
      try h.turn { h.service.engine.state.session?.isSnoozed == true }, "no snooze:\n\(h.log)")
    #expect(h.service.engine.soundPlaying == false)
    try #require(
      try h.turn { h.ringerSaw { if case .stopped = $0 { true } else { false } } },
      "the ringer did not stop")
    #expect(h.log.contains("short press: snooze"))
    #expect(h.plan.deadline == H.at(7, 0, 3))

    press(128)  // KEY_STOP
    try #require(try h.turn { h.service.engine.state.session == nil }, "no stop:\n\(h.log)")
    #expect(h.log.contains("short press: stop"))
    #expect(h.service.engine.state.history.last?.kind == .stopped)
  }

  @Test func aControlRequestIsAnsweredOnTheSocket() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0))
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains(#""ok":true"#) && status.contains("wake"))
    let skip = try h.request(#"{"cmd":"skip","id":"wake"}"#)
    #expect(skip.contains(#""ok":true"#) && skip.contains("2040-01-02"))
    #expect(try h.request("not json").contains("bad-json"))
    // The skip moved the plan to tomorrow's prepare point.
    #expect(h.plan.deadline == H.at(6, 59, 58) + .seconds(86_400))
  }

  @Test func aBadConfigEditKeepsTheLastGoodConfig() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0))
    try H.write(H.config(H.alarm("wake", "7 o'clock")), to: h.configPath)
    try #require(
      try h.turn { !h.service.configs.errors.isEmpty }, "the edit was not seen:\n\(h.log)")
    #expect(h.service.engine.alarms["wake"]?.time == LocalTime(hour: 7, minute: 0))
    #expect(h.log.contains("the last good config stays in force"))
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains(#""ok":false"#) && status.contains("alarms.toml:"))
    // A good edit applies.
    try H.write(H.config(H.alarm("wake", "07:30")), to: h.configPath)
    try #require(try h.turn { h.service.engine.alarms["wake"]?.time.minute == 30 })
    #expect(h.plan.deadline == H.at(7, 29, 58))
  }

  @Test func theStateIsSavedAndAFailedSaveIsRetried() throws {
    let h = try H(
      config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0),
      options: { $0.stateRetryInterval = .milliseconds(300) })
    #expect(try h.request(#"{"cmd":"skip","id":"wake"}"#).contains(#""ok":true"#))
    #expect(try h.savedState().marks.skipNext["wake"] != nil)

    // A directory where the file goes: the rename fails, the change stays in force.
    try FileSystem.remove(h.statePath)
    try FileSystem.createDirectory(h.statePath, mode: 0o755, intermediates: false)
    #expect(try h.request(#"{"cmd":"unskip","id":"wake"}"#).contains(#""ok":true"#))
    #expect(h.service.saver.failing)
    #expect(h.log.contains("cannot write the state file"))
    #expect(try h.request(#"{"cmd":"status"}"#).contains("cannot write \(h.statePath)"))

    #expect(rmdir(h.statePath) == 0)
    try #require(try h.turn { !h.service.saver.failing }, "no retry:\n\(h.log)")
    #expect(h.log.contains("state file written again"))
    #expect(try h.savedState().marks.skipNext.isEmpty)
  }
}
