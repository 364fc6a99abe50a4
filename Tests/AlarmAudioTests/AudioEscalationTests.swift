import AlarmCore
import AlarmFiles
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmAudio
@testable import AlarmPlatform

/// Sound folders and escalation through ALSA's `pulse` device into a null sink of this
/// suite's own (AudioPlaybackTests records the default one at the same time), recorded
/// from its monitor. Serialized: every test shares the sink.
@Suite(.serialized, .enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
final class AudioEscalationTests {
  let dir: TempDir
  let events = EventLog<RingerEvent>()
  let ringer: Ringer
  static let sink = "alarmclock_test_escalation"
  let device: String

  init() throws {
    device = try PulseTestServer.device(ownSink: Self.sink)
    dir = try TempDir("escalation")
    let events = self.events
    ringer = try Ringer(defaultSound: nil, events: { events.append($0) })
    try Tool.check(["pactl", "set-sink-volume", Self.sink, "100%"])
    try Tool.check(["pactl", "set-sink-mute", Self.sink, "0"])
  }

  deinit { dir.remove() }

  func sine(_ freq: Int, rate: Int = 44100, path: String) throws -> String {
    try Tool.check([
      "sox", "-R", "-n", "-r", "\(rate)", "-c", "2", "-b", "16", path, "synth", "1", "sine",
      "\(freq)", "vol", "0.5",
    ])
    return path
  }

  /// Rings `request` to its `maxDuration`; the recording from the first frame on.
  func record(_ request: RingRequest) throws -> ArraySlice<Float> {
    let rec = try SinkRecorder(directory: dir.path, sink: Self.sink)
    ringer.start(request)
    let hit = try #require(events.wait { if case .firstFrame = $0 { true } else { false } })
    guard case .firstFrame(_, let realtime) = hit.0 else { return [] }
    let start = rec.frameIndex(realtime: realtime.secondsDouble)
    let stopped = events.wait(timeout: 15) { if case .stopped = $0 { true } else { false } }
    #expect(stopped != nil)
    let samples = rec.finish()
    return samples[min(start, samples.count)...]
  }

  /// [from, to) seconds into the ring; an issue when the recording stops short of it (a short
  /// window is never judged silently).
  func window(
    _ s: ArraySlice<Float>, _ from: Double, _ to: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> ArraySlice<Float> {
    let a = s.startIndex + Int(from * SinkRecorder.rate)
    let b = s.startIndex + Int(to * SinkRecorder.rate)
    if b > s.endIndex {
      Issue.record(
        "the recording ends \(Double(b - s.endIndex) / SinkRecorder.rate) s before \(to) s",
        sourceLocation: sourceLocation)
    }
    return s[min(a, s.endIndex)..<min(b, s.endIndex)]
  }

  @Test func aFolderOfTwoTonesRingsOneOfThem() throws {
    let folder = dir.file("mornings")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    _ = try sine(440, path: folder + "/a.wav")
    _ = try sine(660, path: folder + "/b.flac")
    let location = try SoundResolver(directories: [dir.path]).locate("mornings")
    #expect(location == .folder(dir.path + "/mornings"))
    let files = try SoundResolver.playableFiles(in: folder)
    #expect(files.sorted() == ["a.wav", "b.flac"])
    let file = try #require(SoundPicker.pick(files, order: .shuffle, last: nil))
    let samples = try record(
      RingRequest(
        sound: folder + "/" + file, volume: 100, ramp: .zero, maxDuration: .seconds(1),
        devices: [device]))
    let f = Signal.zeroCrossingFrequency(window(samples, 0.2, 0.8), rate: SinkRecorder.rate)
    let want = file == "a.wav" ? 440.0 : 660.0
    #expect(abs(f - want) < 5, "\(file) recorded as \(f) Hz")
  }

  @Test func escalationRaisesTheLevelAfterItsDelay() throws {
    var request = RingRequest(
      sound: try sine(440, path: dir.file("tone.wav")), volume: 50, ramp: .zero,
      maxDuration: .seconds(4), devices: [device])
    request.escalation = Escalation(after: .seconds(2), volume: 100, ramp: .milliseconds(500))
    let samples = try record(request)
    #expect(events.wait(timeout: 1) { $0 == .escalated(sound: nil) } != nil)
    let before = Signal.rms(window(samples, 0.5, 1.8))
    let after = Signal.rms(window(samples, 2.8, 3.8))
    // 50 % is (0.5)^3 of full scale, 18 dB down: escalated it is about 8 times louder.
    #expect(before > 0.01 && after > 5 * before, "before \(before), after \(after)")
  }

  @Test func escalationSoundReplacesTheSoundWithoutAGap() throws {
    var request = RingRequest(
      sound: try sine(440, path: dir.file("calm.wav")), volume: 100, ramp: .zero,
      maxDuration: .seconds(3), devices: [device])
    // Another rate than the device's: converted in the loop, the PCM stays open.
    let loud = try sine(660, rate: 22050, path: dir.file("loud.wav"))
    request.escalation = Escalation(after: .milliseconds(1500), volume: 100, sound: loud)
    let samples = try record(request)
    #expect(events.wait(timeout: 1) { $0 == .escalated(sound: loud) } != nil)
    let f1 = Signal.zeroCrossingFrequency(window(samples, 0.3, 1.2), rate: SinkRecorder.rate)
    let f2 = Signal.zeroCrossingFrequency(window(samples, 2.0, 2.8), rate: SinkRecorder.rate)
    #expect(abs(f1 - 440) < 5 && abs(f2 - 660) < 5, "\(f1) Hz then \(f2) Hz")
    // No gap: every 50 ms from the start to the end of the window sounds.
    for t in stride(from: 0.1, to: 2.8, by: 0.05) {
      #expect(Signal.rms(window(samples, t, t + 0.05)) > 0.05, "quiet at \(t) s")
    }
    // One device open for the whole ring: the switch did not reopen the PCM.
    #expect(events.events.filter { if case .deviceOpened = $0 { true } else { false } }.count == 1)
  }
}
