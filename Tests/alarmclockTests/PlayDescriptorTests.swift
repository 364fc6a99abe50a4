import AudioTestSupport
import Foundation
import Testing

/// Running out of file descriptors must not silence a ring: the product's ringer driven by
/// `alarmclock-bench out-of-descriptors`, which fills every descriptor before or after the
/// ringer is made (fault injection stays out of the product binary).
@Suite(.serialized) struct PlayDescriptorTests {
  /// A null sink of this suite's own, recorded without the other suites' sounds.
  static let sink = "alarmclock_fds"

  static func device() throws -> String {
    let sinks = try Tool.run(["pactl", "list", "short", "sinks"]).out
    if !sinks.contains(sink) {
      try Tool.check(["pactl", "load-module", "module-null-sink", "sink_name=\(sink)"])
    }
    return "pulse:\(sink)"
  }

  /// With no descriptor left the ringer gives its spares back to open the file and the
  /// PCM: the file's own 440 Hz sounds, not the fallback tone, and not silence.
  @Test(.enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
  func aRingOutOfDescriptorsStillPlaysItsFile() throws {
    let dir = try TempDir("fds")
    defer { dir.remove() }
    let sine = dir.file("sine.wav")
    try Tool.check([
      "sox", "-R", "-n", "-r", "48000", "-c", "2", "-b", "16", sine, "synth", "1.5", "sine",
      "440", "vol", "0.5",
    ])
    let device = try Self.device()
    let rec = try SinkRecorder(directory: dir.path, sink: Self.sink)
    let r = try Tool.run([CLI.bench, "out-of-descriptors", "after", sine, "--device", device])
    let samples = rec.finish()
    #expect(r.status == 0, "\(r.err)")
    #expect(!r.err.contains("fallback"), "\(r.err)")
    let all = samples[...]
    #expect(Signal.rms(all) > 0.01, "silence on the sink: \(r.err)")
    #expect(
      Signal.goertzel(all, frequency: 440, rate: 48000)
        > 10 * Signal.goertzel(all, frequency: 880, rate: 48000))
  }

  /// With none left for the ringer's own eventfd, timers and reserve, it says so and exits
  /// (the service fails to start loudly); it does not hang on a descriptor of -1.
  @Test func noDescriptorsForTheRingerIsAnErrorNotAHang() throws {
    let chime = CLI.repo.appendingPathComponent("sounds/chime-rise.wav").path
    let r = try Tool.run([CLI.bench, "out-of-descriptors", "before", chime, "--device", "null"])
    #expect(r.status == 1, "\(r.err)")
    #expect(r.err.contains("cannot start the ringer"), "\(r.err)")
    #expect(r.err.contains("Too many open files"), "\(r.err)")
  }
}
