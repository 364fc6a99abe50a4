import AudioTestSupport
import Foundation
import Testing

/// Radio alarms end to end: the real binary and its stream helper, a real Icecast server on
/// loopback fed by ffmpeg (a 660 Hz station), the fallback sound a 440 Hz file, all
/// recorded from a PulseAudio null sink.
@Suite(
  .serialized,
  .enabled(if: PulseTestServer.available, PulseTestServer.skipComment),
  .enabled(if: IcecastServer.available, "icecast2 and ffmpeg are needed (scripts/deps test)"))
struct ServiceStreamTests {
  static let station = 660.0
  static let fallback = 440.0

  static func config(
    url: String, fallback: String, time: String, hook: String, snooze: String = "9m",
    alarm extra: String = ""
  ) throws -> String {
    """
    [settings]
    timezone = "UTC"

    [audio]
    device = "\(try ServiceSink.device(ServiceSink.stream))"
    stream_lead = "5s"

    [defaults]
    ramp = "0s"
    volume = 100
    ring_for = "2m"
    snooze = "\(snooze)"

    [hooks]
    audio_failed = ["\(hook)"]

    [[alarm]]
    id = "radio"
    time = "\(time)"
    days = "daily"
    sound = "\(url)"
    fallback_sound = "\(fallback)"
    \(extra)
    """
  }

  /// A hook script that appends its environment's failure to `log`.
  static func hook(_ dir: TempDir) throws -> (script: String, log: String) {
    let script = dir.file("failed.sh")
    let log = dir.file("failed.log")
    try "#!/bin/sh\necho \"$ALARM_EVENT|$ALARM_AUDIO_FAILED\" >> '\(log)'\n"
      .write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    return (script, log)
  }

  /// The dominant pitch of [from, to), or nil when that stretch is quiet or not recorded.
  static func pitch(_ samples: [Float], _ rec: SinkRecorder, from: Double, to: Double) -> Double? {
    let a = max(0, rec.frameIndex(realtime: from))
    let b = min(samples.count, rec.frameIndex(realtime: to))
    guard b - a > 2400 else { return nil }
    let slice = samples[a..<b]
    guard Signal.rms(slice) > 0.05 else { return nil }
    return Signal.zeroCrossingFrequency(slice, rate: SinkRecorder.rate)
  }

  /// The longest run of 50 ms windows quieter than -40 dBFS in [from, to), in seconds.
  static func longestGap(_ samples: [Float], _ rec: SinkRecorder, from: Double, to: Double)
    -> Double
  {
    let step = Int(SinkRecorder.rate / 20)
    var a = max(0, rec.frameIndex(realtime: from))
    let b = min(samples.count, rec.frameIndex(realtime: to))
    var run = 0
    var longest = 0
    while a + step <= b {
      run = Signal.rms(samples[a..<(a + step)]) < 0.01 ? run + 1 : 0
      longest = max(longest, run)
      a += step
    }
    return Double(longest) / 20
  }

  @Test func theStationRingsOnTimeAndItsFallbackWithin2sOfItsServerDying() throws {
    let dir = try TempDir("stream")
    defer { dir.remove() }
    let station = try IcecastServer(directory: dir.path, frequency: Self.station)
    defer { station.kill() }
    let tone = try ServiceRingTests.writeTone(dir)
    let (hook, hookLog) = try Self.hook(dir)
    let firing = TestClock.firing(in: 9)
    let service = try ServiceProcess(
      dir: dir,
      config: try Self.config(url: station.url, fallback: tone, time: firing.text, hook: hook))
    defer { _ = service.terminate() }
    let rec = try SinkRecorder(directory: dir.path, sink: ServiceSink.stream)
    // Prepared stream_lead ahead: the helper connects and buffers before the firing.
    try service.waitForLog("stream \(station.url): open", timeout: 15)
    try service.waitForLog("ringing 'radio'", timeout: 15)
    rec.record(seconds: 3)
    let killedAt = realtimeNow()
    station.kill()
    try service.waitForLog("ringing the fallback sound", timeout: 10)
    rec.record(seconds: 3)
    let status = try service.status()
    let session = status["session"] as? [String: Any]
    let problem = session?["sound_problem"] as? String ?? ""
    #expect(problem.hasPrefix("stream: "), "sound_problem: \(problem)")
    #expect(session?["sound"] as? String == station.url)
    // The station comes back: the stream takes over again once it is steady.
    try station.start()
    try service.waitForLog("is back; it rings again", timeout: 40)
    let backAt = realtimeNow()
    rec.record(seconds: 2)
    let stopAt = realtimeNow()
    #expect(try service.ctl(["stop"]).status == 0)
    let samples = rec.finish(through: stopAt)
    let streamLog = service.log.split(separator: "\n").filter {
      $0.contains("stream") || $0.contains("ringing") || $0.contains("first frame")
    }
    // What the service said about the stream: the first thing to read when this fails.
    print(streamLog.joined(separator: "\n"))
    // One switch while the server was down: the refused retries update the reason
    // ("the fallback sound rings on") without claiming to switch again.
    let down = streamLog.prefix { !$0.contains("is back; it rings again") }
    #expect(down.filter { $0.contains("ringing the fallback sound") }.count == 1)

    let onset = Signal.onset(
      samples, threshold: 0.05, from: rec.frameIndex(realtime: firing.unix - 1)
    )
    .map { Double($0 - rec.frameIndex(realtime: firing.unix)) / SinkRecorder.rate }
    #expect(onset.map { $0 > -0.05 && $0 < 0.5 } == true, "onset \(String(describing: onset)) s")
    let before = Self.pitch(samples, rec, from: firing.unix + 0.2, to: killedAt - 0.1)
    #expect(
      before.map { abs($0 - Self.station) < 20 } == true,
      "the station: \(String(describing: before)) Hz")
    let after = Self.pitch(samples, rec, from: killedAt + 2.0, to: killedAt + 3.0)
    #expect(
      after.map { abs($0 - Self.fallback) < 20 } == true,
      "2 s after the kill: \(String(describing: after)) Hz")
    let again = Self.pitch(samples, rec, from: backAt + 0.5, to: stopAt - 0.1)
    #expect(
      again.map { abs($0 - Self.station) < 20 } == true, "back: \(String(describing: again)) Hz")
    let gap = Self.longestGap(samples, rec, from: firing.unix + 0.5, to: stopAt - 0.1)
    #expect(gap < 2.0, "a silence of \(gap) s")
    let hookRuns = ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "")
      .split(separator: "\n")
    #expect(hookRuns.count == 1, "audio_failed ran \(hookRuns.count) times: \(hookRuns)")
  }

  /// A snooze silences the station (its helper ends with the ring period); at the snooze's
  /// end the ring comes back, the stream opened again: the fallback for the moment that
  /// takes, then the station.
  @Test func aSnoozedStationComesBackAfterTheSnooze() throws {
    let dir = try TempDir("stream")
    defer { dir.remove() }
    let station = try IcecastServer(directory: dir.path, frequency: Self.station)
    defer { station.kill() }
    let tone = try ServiceRingTests.writeTone(dir)
    let (hook, _) = try Self.hook(dir)
    let firing = TestClock.firing(in: 8)
    let service = try ServiceProcess(
      dir: dir,
      config: try Self.config(
        url: station.url, fallback: tone, time: firing.text, hook: hook, snooze: "3s"))
    defer { _ = service.terminate() }
    let rec = try SinkRecorder(directory: dir.path, sink: ServiceSink.stream)
    try service.waitForLog("ringing 'radio'", timeout: 15)
    rec.record(seconds: 1.5)
    let snoozeAt = realtimeNow()
    #expect(try service.ctl(["snooze"]).status == 0)
    try service.waitForLog("snooze over", timeout: 10)
    let againAt = realtimeNow()
    try service.waitForLog("playing the stream", count: 2, timeout: 10)
    rec.record(seconds: 2)
    let stopAt = realtimeNow()
    #expect(try service.ctl(["stop"]).status == 0)
    let samples = rec.finish(through: stopAt)
    let first = Self.pitch(samples, rec, from: firing.unix + 0.2, to: snoozeAt - 0.05)
    #expect(first.map { abs($0 - Self.station) < 20 } == true, "\(String(describing: first))")
    let a = rec.frameIndex(realtime: snoozeAt + 0.7)
    let b = rec.frameIndex(realtime: againAt - 0.3)
    #expect(b > a && Signal.rms(samples[a..<b]) < 0.001, "sound during the snooze")
    let back = Self.pitch(samples, rec, from: stopAt - 1.5, to: stopAt - 0.05)
    #expect(back.map { abs($0 - Self.station) < 20 } == true, "\(String(describing: back))")
    #expect(Self.longestGap(samples, rec, from: againAt + 0.3, to: stopAt - 0.05) < 0.5)
  }

  /// The ramp, the volume and the escalation apply to a station as to a file: station A
  /// (660 Hz) rises over its 4 s ramp to 60 % (about a fifth of full scale); after 6 s
  /// the ring escalates to station B (880 Hz, opened with A at the prepare point) at once,
  /// rising to 100 % over the escalation's 10 s; no gap, no fallback.
  @Test func aStationRampsAndEscalatesToAnotherStation() throws {
    let dir = try TempDir("stream")
    defer { dir.remove() }
    let a = try IcecastServer(directory: dir.file("a"), frequency: Self.station)
    defer { a.kill() }
    let b = try IcecastServer(directory: dir.file("b"), frequency: 880)
    defer { b.kill() }
    let tone = try ServiceRingTests.writeTone(dir)
    let (hook, hookLog) = try Self.hook(dir)
    let firing = TestClock.firing(in: 9)
    let extra = """
      ramp = "4s"
      volume = 60
      escalate_after = "6s"
      escalate_volume = 100
      escalate_sound = "\(b.url)"
      """
    let service = try ServiceProcess(
      dir: dir,
      config: try Self.config(
        url: a.url, fallback: tone, time: firing.text, hook: hook, alarm: extra))
    defer { _ = service.terminate() }
    let rec = try SinkRecorder(directory: dir.path, sink: ServiceSink.stream)
    try service.waitForLog("stream \(b.url): open", timeout: 15)
    try service.waitForLog("ringing 'radio'", timeout: 15)
    try service.waitForLog("the alarm is escalating", timeout: 15)
    // The escalation's volume rises over 10 s: judged at its end.
    rec.record(seconds: max(1, firing.unix + 17.2 - realtimeNow()))
    let stopAt = realtimeNow()
    #expect(try service.ctl(["stop"]).status == 0)
    let samples = rec.finish(through: stopAt)
    print(
      service.log.split(separator: "\n").filter { $0.contains("stream") }.joined(separator: "\n"))

    func level(_ from: Double, _ to: Double) -> Double {
      let i = max(0, rec.frameIndex(realtime: firing.unix + from))
      let j = min(samples.count, rec.frameIndex(realtime: firing.unix + to))
      return j - i > 2400 ? Signal.rms(samples[i..<j]) : 0
    }
    func pitch(_ from: Double, _ to: Double) -> Double? {
      let i = max(0, rec.frameIndex(realtime: firing.unix + from))
      let j = min(samples.count, rec.frameIndex(realtime: firing.unix + to))
      guard j - i > 2400, Signal.rms(samples[i..<j]) > 0.003 else { return nil }
      return Signal.zeroCrossingFrequency(samples[i..<j], rate: SinkRecorder.rate)
    }
    let early = level(0.3, 0.8)
    let ramped = level(4.5, 5.5)
    let escalated = level(16.2, 17.0)
    #expect(early < 0.5 * ramped, "the ramp: \(early) early, \(ramped) at 60 %")
    #expect(escalated > 3 * ramped, "escalated: \(escalated), against \(ramped) at 60 %")
    let first = pitch(1.0, 5.5)
    #expect(first.map { abs($0 - Self.station) < 20 } == true, "A: \(String(describing: first))")
    let second = pitch(6.8, 8.0)
    #expect(second.map { abs($0 - 880) < 20 } == true, "B: \(String(describing: second))")
    #expect(Self.longestGap(samples, rec, from: firing.unix + 4.5, to: stopAt - 0.05) < 0.2)
    #expect(!service.log.contains("ringing the fallback sound"))
    #expect(((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").isEmpty)
  }
}
