import AudioTestSupport
import Foundation
import Testing

/// Never silent, to the last resort: the configured device's PulseAudio sink is removed
/// (`pactl unload-module`) while the service runs; the audio check before the alarm finds
/// it missing, says so (log, `status`, the `audio_failed` hook) and chooses the failover:
/// a fallback device, or the buzzer (a FIFO standing in for the GPIO chip, receiving the
/// line's SET_VALUES records) until the device comes back.
@Suite(.serialized, .enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
struct ServiceLastResortTests {
  /// A null sink of the test's own, unloaded (`pactl unload-module`) by `remove()` or at
  /// the end of the test.
  final class TestSink {
    let name: String
    private var module: String?

    init(_ tag: String) throws {
      name = "alarmclock_lastresort_\(getpid())_\(tag)"
      try load()
    }

    func load() throws {
      let r = try Tool.run(["pactl", "load-module", "module-null-sink", "sink_name=\(name)"])
      guard r.status == 0 else { throw ServiceTestError("pactl load-module: \(r.err)") }
      module = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remove() throws {
      guard let module else { return }
      try Tool.check(["pactl", "unload-module", module])
      self.module = nil
    }

    deinit { try? remove() }
  }

  /// A hook writing its ALARM_* variables to `file`.
  static func hook(_ dir: TempDir) -> (command: String, file: String) {
    let file = dir.file("audio_failed.env")
    return ("[\"/bin/sh\", \"-c\", \"env | grep ^ALARM_ | sort > '\(file)'\"]", file)
  }

  static func config(time: String, device: String, audioExtra: String, hook: String) -> String {
    """
    [settings]
    timezone = "UTC"

    [audio]
    device = "\(device)"
    \(audioExtra)

    [defaults]
    ramp = "0s"
    ring_for = "30s"

    [hooks]
    audio_failed = \(hook)

    [[alarm]]
    id = "wake"
    label = "Wake"
    time = "\(time)"
    days = "daily"
    """
  }

  /// Starts the service with an alarm a few seconds ahead on `sink`, waits for its first
  /// audio check (at start-up: the alarm is less than a minute away) and removes the sink.
  static func startThenRemove(
    _ sink: TestSink, dir: TempDir, audioExtra: String, hook: String
  ) throws -> (service: ServiceProcess, firing: Double) {
    let firing = TestClock.firing(in: 6)
    let service = try ServiceProcess(
      dir: dir,
      config: config(
        time: firing.text, device: "pulse:\(sink.name)", audioExtra: audioExtra, hook: hook))
    try service.waitForLog("audio: checking the devices for 'wake'")
    try sink.remove()
    return (service, firing.unix)
  }

  static func audioInput(_ status: [String: Any], _ name: String) -> [String: Any]? {
    (status["inputs"] as? [[String: Any]])?.first { $0["name"] as? String == name }
  }

  @Test func aRemovedSinkFailsOverToTheFallbackBeforeTheAlarm() throws {
    let dir = try TempDir("lastresort")
    defer { dir.remove() }
    let sink = try TestSink("a")
    let fallback = try ServiceSink.device(ServiceSink.quiet)
    let (hook, env) = Self.hook(dir)
    let (service, firing) = try Self.startThenRemove(
      sink, dir: dir, audioExtra: "fallback_devices = [\"\(fallback)\"]", hook: hook)
    // The prepare point checks again: the fallback is chosen before the alarm time.
    try service.waitForLog(
      "audio check: 'pulse:\(sink.name)' cannot be opened; failover: \(fallback)", timeout: 15)
    #expect(realtimeNow() < firing, "the failover is chosen ahead")
    let audio = try #require(Self.audioInput(try service.status(), "audio"))
    #expect(audio["available"] as? Bool == false)
    #expect((audio["detail"] as? String)?.contains("failover: \(fallback)") == true, "\(audio)")
    let text = try service.ctl(["status"]).stdout
    #expect(text.contains("failover: \(fallback)"), "\(text)")
    try waitFor("the audio_failed hook", timeout: 10) {
      FileManager.default.fileExists(atPath: env)
    }
    try waitFor("the hook's output", timeout: 5) {
      ((try? String(contentsOfFile: env, encoding: .utf8)) ?? "").contains("ALARM_TIME")
    }
    let vars = try String(contentsOfFile: env, encoding: .utf8)
    #expect(vars.contains("ALARM_EVENT=audio_failed"))
    #expect(vars.contains("ALARM_ID=wake") && vars.contains("ALARM_LABEL=Wake"))
    #expect(vars.contains("ALARM_AUDIO_FAILED=pulse:\(sink.name)"))
    #expect(vars.contains("ALARM_AUDIO_DEVICE=\(fallback)"))
    // The ring starts on the fallback at once, not after retrying the missing sink.
    try service.waitForLog("first frame on \(fallback)", timeout: 15)
    #expect(!service.log.contains("(attempt 1)"), "\(service.log)")
    #expect(try service.ctl(["stop"]).status == 0)
    service.terminate()
  }

  @Test func withNoDeviceTheBuzzerBeepsUntilTheSinkIsBack() throws {
    let dir = try TempDir("lastresort")
    defer { dir.remove() }
    let sink = try TestSink("b")
    let chip = dir.file("gpiochip")
    #expect(mkfifo(chip, 0o600) == 0)
    // Opened first, read-write, so the service's writes never block or fail.
    let reader = open(chip, O_RDWR | O_NONBLOCK)
    defer { close(reader) }
    var values: [UInt8] = []
    func drain() {
      var record = [UInt8](repeating: 0, count: 16)
      while record.withUnsafeMutableBytes({ read(reader, $0.baseAddress, 16) }) == 16 {
        values.append(record[0])
      }
    }
    let (hook, env) = Self.hook(dir)
    let (service, _) = try Self.startThenRemove(
      sink, dir: dir, audioExtra: "buzzer = { chip = \"\(chip)\", line = 18 }", hook: hook)
    #expect(service.log.contains("buzzer: \(chip) line 18 (FIFO) ready"))
    try service.waitForLog("failover: the buzzer (\(chip) line 18 (FIFO))", timeout: 15)
    try service.waitForLog("buzzer: beeping", timeout: 15)
    // Bursts of beeps: the line goes high and low again and again.
    try waitFor("the buzzer's line to toggle", timeout: 10) {
      drain()
      return values.filter { $0 == 1 }.count >= 4 && values.filter { $0 == 0 }.count >= 4
    }
    let buzzer = try #require(Self.audioInput(try service.status(), "buzzer"))
    #expect((buzzer["detail"] as? String)?.hasSuffix("beeping") == true, "\(buzzer)")
    let vars = try String(contentsOfFile: env, encoding: .utf8)
    #expect(vars.contains("ALARM_AUDIO_DEVICE=buzzer"), "\(vars)")
    // The sink comes back: the ringer's retries open it, the buzzer stops, the sound plays.
    try sink.load()
    try service.waitForLog("buzzer: stopped: playing on pulse:\(sink.name)", timeout: 20)
    drain()
    #expect(values.last == 0, "the line is left low")
    try service.waitForLog("first frame on pulse:\(sink.name)", timeout: 5)
    #expect(try service.ctl(["stop"]).status == 0)
    service.terminate()
  }
}
