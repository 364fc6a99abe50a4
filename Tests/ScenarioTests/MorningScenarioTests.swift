import AlarmAudio
import AlarmCore
import AlarmPlatform
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmService
@testable import AlarmWeb

/// Issue 26's story: in the evening a reminder is added for tomorrow on the phone page;
/// the next morning the alarm rings, says the time and its label over its ducked sound,
/// and after the stop reads that reminder. The page's app and the service run in this
/// process on one config directory, the service's clock injected (the evening, then the
/// morning); the sound is real, through ALSA into a PulseAudio null sink, recorded and
/// judged: the ring's 440 Hz before the words, ducked under them, the words themselves
/// (what is not 440 Hz), and after the stop words with no ring under them.
@Suite(.serialized, .enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
struct MorningScenarioTests {
  static let sink = "alarmclock_scenario"
  static let tone = 440.0

  /// 2040-01-01 (a Sunday) at h:m:s UTC.
  static func at(_ d: Int, _ h: Int, _ m: Int, _ s: Int = 0) -> Instant {
    let day = Int64(LocalDate(year: 2040, month: 1, day: d).daysSinceEpoch)
    return Instant(seconds: day * 86_400 + Int64(h * 3600 + m * 60 + s))
  }

  @Test func aReminderAddedOnThePhoneIsReadAfterTheAnnouncingAlarm() throws {
    let dir = try TempDir("scenario")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let tone = dir.file("tone.wav")
    try Tool.check([
      "sox", "-n", "-r", "48000", "-c", "1", "-b", "16", tone, "synth", "1", "sine", "440", "vol",
      "0.5",
    ])
    let config = """
      [settings]
      timezone = "UTC"

      [audio]
      device = "\(try PulseTestServer.device(ownSink: Self.sink))"

      [voice]
      language = "en"
      volume = 70

      [[alarm]]
      id = "work"
      label = "Work"
      time = "06:45"
      days = "weekdays"
      sound = "\(tone)"
      volume = 100
      ramp = "2s"
      ring_for = "5m"
      announce = true
      """
    try config.write(toFile: dir.file("alarms.toml"), atomically: true, encoding: .utf8)
    let clock = Locked(Self.at(1, 21, 30))
    let logPath = dir.file("service.log")
    let logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    defer { close(logFD) }
    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var options = ServiceOptions(
      configPath: dir.file("alarms.toml"), stateDir: dir.file("state"),
      socket: dir.file("control.sock"), environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
    options.realtime = false
    let service = try Service(
      options: options, log: Logger(fd: logFD, environment: Environment([:]), minimumLevel: .debug),
      clock: ServiceClock(now: { clock.withLock { $0 } }))
    var events: [(RingerEvent, Double)] = []
    service.ringerEvents = { events.append(($0, realtimeNow())) }
    try service.start()
    defer { service.shutDown() }
    func turn(_ what: String, timeout: Double = 20, until: () -> Bool) throws {
      let deadline = realtimeNow() + timeout
      while !until() {
        guard realtimeNow() < deadline else {
          throw ScenarioError("no \(what) within \(timeout) s; log:\n\(log())")
        }
        _ = try service.runOnce(timeout: .milliseconds(20))
      }
    }

    // The evening: the phone page's add form, posted as the browser posts it.
    let web = WebApp(
      setup: WebSetup(
        configPath: dir.file("alarms.toml"), socketPath: dir.file("none.sock"),
        stateDir: dir.file("web-state"), environment: ["TZ": "UTC", "LANG": "C.UTF-8"],
        now: { Self.at(1, 21, 31) }),
      access: WebAccess(token: "sesame\n"))
    let login = web.respond(
      WebRequest(method: "POST", path: "/login", body: Array("token=sesame".utf8)))
    let setCookie = login.header("Set-Cookie")?.split(separator: ";").first
    let cookie = try #require(setCookie)
    let session = String(cookie.split(separator: "=", maxSplits: 1)[1])
    let csrf = WebAccess(token: "sesame").csrf(for: session)
    let added = web.respond(
      WebRequest(
        method: "POST", path: "/reminders", headers: ["Cookie": String(cookie)],
        body: Array("csrf=\(csrf)&title=Dentist+at+ten&due_date=2040-01-02&due_time=&notes=".utf8)))
    #expect(added.status == 303, "\(String(decoding: added.body, as: UTF8.self))")
    // The running service takes the new list at once.
    try turn("reminder list applied") { log().contains("reminders applied (file changed): 1") }

    // The morning: the prepare point (the first sentence is made there), then the firing.
    let recorder = try SinkRecorder(directory: dir.path, sink: Self.sink)
    clock.withLock { $0 = Self.at(2, 6, 44, 58) }
    service.timeReached(.expired(1))
    clock.withLock { $0 = Self.at(2, 6, 45) }
    service.timeReached(.expired(1))
    try turn("the first frame") {
      events.contains { if case .firstFrame = $0.0 { true } else { false } }
    }
    // After the two-second ramp the announcement is mixed in.
    try turn("the announcement") {
      events.contains { if case .announced = $0.0 { true } else { false } }
    }
    // The playback thread's own clock readings: when the first frame and the first frame
    // with words were handed over.
    var firstFrame: Double?
    var announced: Double?
    for (event, _) in events {
      switch event {
      case .firstFrame(_, let at) where firstFrame == nil: firstFrame = at.secondsDouble
      case .announced(let at) where announced == nil: announced = at.secondsDouble
      default: break
      }
    }
    let first = try #require(firstFrame)
    let spoken = try #require(announced)
    #expect(log().contains("announcement: \"It's six forty-five. Work.\""), "\(log())")
    // When the two-second fade-in ends (later only if the sentence was not ready yet).
    #expect(spoken - first > 1.95 && spoken - first < 6, "\(spoken - first) s")
    // The words take about two seconds and reach the sink a device buffer (or, on a busy
    // machine, a good deal) later: the recording up to 12 s on is searched for them.
    #expect(recorder.waitUntilRecorded(through: spoken + 12, timeout: 60))
    clock.withLock { $0 = Self.at(2, 6, 45, 30) }
    let stopped = realtimeNow()
    let stop = service.answer(.stop)
    #expect(stop == .ok(.empty))
    try turn("today's reminders said", timeout: 30) {
      log().contains("speech: \"One reminder today: Dentist at ten.\"")
    }
    try turn("the reading's end", timeout: 30) { !service.speech.isBusy }
    let said = realtimeNow()
    let samples = recorder.finish(through: said + 0.2, timeout: 30)

    func slice(_ from: Double, _ to: Double) throws -> ArraySlice<Float> {
      let a = recorder.frameIndex(realtime: from)
      let b = recorder.frameIndex(realtime: to)
      return try #require(Signal.window(samples, a, b), "the recording does not cover it")
    }
    /// The ring's amplitude (Goertzel's power is a sine's amplitude squared over 4).
    func ring(_ s: ArraySlice<Float>) -> Double {
      2 * Signal.goertzel(s, frequency: Self.tone, rate: SinkRecorder.rate).squareRoot()
    }
    /// The RMS of what is not the ring: the words.
    func words(_ s: ArraySlice<Float>) -> Double {
      let total = Signal.rms(s)
      let r = ring(s)
      return (max(0, total * total - r * r / 2)).squareRoot()
    }
    // 100 ms windows from the words' mixing on: the ring at its full level (the loudest
    // windows), a run of a second or more where it is below 0.3 of that with the words loud
    // over it, and after the run the ring back with nothing else.
    var profile: [(ring: Double, words: Double)] = []
    for i in 0..<120 {
      let w = try slice(spoken + Double(i) / 10, spoken + Double(i + 1) / 10)
      profile.append((ring(w), words(w)))
    }
    let shown = profile.map { String(format: "%.3f/%.3f", $0.ring, $0.words) }
    let full = profile.map(\.ring).max() ?? 0
    #expect(full > 0.1, "the ring at full level: \(shown)")
    let ducked = profile.map { $0.ring < full * 0.3 }
    var runs: [Range<Int>] = []
    var start: Int?
    for (i, d) in (ducked + [false]).enumerated() {
      if d, start == nil { start = i }
      if !d, let s = start {
        runs.append(s..<i)
        start = nil
      }
    }
    let duck = try #require(runs.max { $0.count < $1.count }, "never ducked: \(shown)")
    #expect(duck.count >= 10, "the ring ducked for a second or more: \(shown)")
    #expect(
      duck.filter { profile[$0].words > 0.02 }.count >= 5, "words over the ducked ring: \(shown)")
    let back = (duck.upperBound + 6)..<min(profile.count, duck.upperBound + 11)
    #expect(back.count == 5, "the recording goes on after the words: \(shown)")
    #expect(
      back.allSatisfy { profile[$0].ring > full * 0.8 && profile[$0].words < 0.02 },
      "the ring back, nothing else, after the words: \(shown)")
    // After the stop: words, and no ring under them.
    let onset = try #require(
      Signal.onset(samples, threshold: 0.02, from: recorder.frameIndex(realtime: stopped + 0.2)),
      "nothing said after the stop:\n\(log())")
    let reading = samples[onset..<min(samples.count, onset + 48_000)]
    #expect(ring(reading) < full * 0.1, "the ring is over: \(ring(reading))")
    #expect(!log().contains("fallback"), "\(log())")
    #expect(words(reading) > 0.02, "the reading: \(words(reading))")
  }
}

struct ScenarioError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
