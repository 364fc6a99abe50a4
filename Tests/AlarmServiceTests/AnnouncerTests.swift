import AlarmAudio
import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// The announcer on a real loop with real espeak-ng: the first sentence made ahead is said
/// when the fade-in ends, the next ones every period, each with the time of its own moment;
/// a stop ends them, and a prepared sentence that is never started says nothing. (The
/// mixing over the ring is recorded in ScenarioTests.)
@Suite(.serialized, .enabled(if: FileSystem.exists("/usr/bin/espeak-ng")))
struct AnnouncerTests {
  @Test func saidAfterTheRampThenEveryPeriodUntilTheStop() throws {
    let loop = try EventLoop()
    let dir = ServiceHarness.tempDirectory()
    defer { _ = system("rm -rf '\(dir)'") }
    let logFD = open(dir + "/log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    defer { close(logFD) }
    let log = Logger(fd: logFD, environment: Environment([:]), minimumLevel: .debug)
    var said: [(clip: SpeechClip, percent: Int, at: Duration)] = []
    var moments: [Instant] = []
    let start = Instant(seconds: 2_000_000_000)
    let announcer = try Announcer(
      loop: loop, log: log, directory: dir, environment: Environment(["PATH": "/usr/bin:/bin"]),
      now: { start }, say: { said.append(($0, $1, Clock.monotonic.now())) })
    let ring = Announcer.Ring(
      alarmID: "work",
      text: { at in
        moments.append(at)
        return "It's six forty-five. Work."
      }, locale: .english, voice: VoiceConfig(volume: 65), ramp: .milliseconds(300),
      every: .milliseconds(1500))
    announcer.prepare(ring, firstAt: start + .milliseconds(300))
    let started = Clock.monotonic.now()
    announcer.started(ring)
    func turn(until done: () -> Bool) throws {
      let deadline = Clock.monotonic.now() + .seconds(30)
      while !done() && Clock.monotonic.now() < deadline {
        _ = try loop.runOnce(timeout: .milliseconds(20))
      }
    }
    try turn { said.count >= 3 }
    #expect(said.count >= 3)
    // The first at the ramp's end (its sentence was made ahead), then one per period.
    let first = try #require(said.first).at - started
    #expect(first >= .milliseconds(300) && first < .seconds(3), "\(first)")
    for (a, b) in zip(said, said.dropFirst()) {
      let gap = b.at - a.at
      #expect(gap >= .milliseconds(1450) && gap < .seconds(6), "\(gap)")
    }
    #expect(said.allSatisfy { $0.percent == 65 && $0.clip.duration > .milliseconds(500) })
    // Each sentence has the time of its moment: made for the ramp's end, then a period on.
    #expect(moments.first == start + .milliseconds(300))
    #expect(moments.dropFirst().allSatisfy { $0 == start + .milliseconds(1500) })
    announcer.stop()
    let count = said.count
    let quiet = Clock.monotonic.now() + .seconds(2)
    try turn { Clock.monotonic.now() > quiet }
    #expect(said.count == count, "nothing is said after the stop")
    // Prepared for a ring that never starts (the alarm was stopped before it): nothing.
    announcer.prepare(ring, firstAt: start)
    let later = Clock.monotonic.now() + .seconds(2)
    try turn { Clock.monotonic.now() > later }
    #expect(said.count == count)
    announcer.shutDown()
  }
}
