import AudioTestSupport
import CShim
import Foundation
import Testing

/// A reminder at its due second through the real binary: the chime and then the title,
/// recorded from a null sink of its own; a key press (real evdev records through a FIFO)
/// marks it done in the file, comments kept, and the device says so.
@Suite(.serialized, .enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
struct ServiceReminderTests {
  typealias Ring = ServiceRingTests
  typealias Input = ServiceInputTests
  static let sink = "alarmclock_service_reminder"

  /// `yyyy-MM-ddTHH:mm:ss` in UTC of the Unix time `at`.
  static func localText(_ at: Double) -> String {
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    return f.string(from: Date(timeIntervalSince1970: at))
  }

  @Test(.enabled(if: SayTimeCommandTests.hasEspeak))
  func aReminderChimesAtItsDueSecondAndAPressMarksItDone() throws {
    let dir = try TempDir("service-reminder")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let keys = dir.file("keys")
    #expect(mkfifo(keys, 0o600) == 0)
    let config = try Ring.config(
      time: awayFromNow(hours: 6), sound: sound,
      extra: """

        [[input]]
        device = "\(keys)"
        snooze = ["KEY_SPACE"]

        [voice]
        language = "en"
        volume = 100
        """, sink: Self.sink)
    let due = TestClock.firing(in: 5)
    let list = """
      # bins go out on Tuesdays
      [[reminder]]
      id = "bins"
      title = "Take the bins out"
      due = \(Self.localText(due.unix))
      notes = "The blue one too."

      """
    try list.write(toFile: dir.file("reminders.toml"), atomically: true, encoding: .utf8)
    let recorder = try SinkRecorder(directory: dir.path, sink: Self.sink)
    let service = try ServiceProcess(dir: dir, config: config)
    defer { service.terminate() }
    let fifo = open(keys, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(keys) open:\n\(service.log)")
    defer { close(fifo) }
    try service.waitForLog("reminder 'bins' is due: Take the bins out", timeout: 20)
    try service.waitForLog("speech: \"Reminder: Take the bins out.\"", timeout: 10)
    // The chime (1.5 s) and then the sentence (about 2 s) must be in the recording.
    let samples = recorder.finish(through: due.unix + 5.5, timeout: 30)
    let onset = try #require(
      Signal.onset(samples, threshold: 0.02, from: recorder.frameIndex(realtime: due.unix - 1)),
      "nothing was heard at the due time:\n\(service.log)")
    let late = Double(onset - recorder.frameIndex(realtime: due.unix)) / SinkRecorder.rate
    #expect(late > -0.05 && late < 0.5, "the chime came \(late) s after its due second")
    // The chime's first note is E6 (1319 Hz), a bell, not the alarm's tone.
    let note = samples[onset + 480..<onset + 480 + 9600]
    let hz = Signal.zeroCrossingFrequency(note, rate: SinkRecorder.rate)
    #expect(abs(hz - 1318.5) < 40, "the chime's first note at \(hz) Hz")
    // Then words: sound spread over many frequencies after the chime has died away.
    let words = try #require(
      Signal.onset(samples, threshold: 0.02, from: onset + Int(1.6 * SinkRecorder.rate)),
      "no words after the chime:\n\(service.log)")
    let spoken = samples[words..<min(samples.count, words + 24_000)]
    #expect(abs(Signal.zeroCrossingFrequency(spoken, rate: SinkRecorder.rate) - 1318.5) > 100)

    // A press now marks it done: the file keeps its comment and notes.
    Input.write(fifo, Input.key(57, 1) + Input.key(57, 0))
    try service.waitForLog("press: reminder 'bins' marked done", timeout: 10)
    let text = try String(contentsOfFile: dir.file("reminders.toml"), encoding: .utf8)
    #expect(text.contains("# bins go out on Tuesdays"))
    #expect(text.contains("notes = \"The blue one too.\"\ndone = true"), "\(text)")
    try service.waitForLog("speech: \"Done: Take the bins out.\"", timeout: 10)
    // A second press is an ordinary idle press again (no hook, no speech configured).
    Input.write(fifo, Input.key(57, 1) + Input.key(57, 0))
    try service.waitForLog("press: nothing to do", timeout: 10)
    #expect(!service.log.contains("fallback"), "\(service.log)")
    #expect(service.terminate() == 0)
  }
}
