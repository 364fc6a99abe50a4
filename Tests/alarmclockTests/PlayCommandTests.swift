import AudioTestSupport
import Foundation
import Testing

/// `alarmclock play`, run as the built binary.
@Suite(.serialized) struct PlayCommandTests {
  /// A null sink of these tests' own (`pulse:alarmclock_cli`), so they never sound into the
  /// sink the AlarmPlatform playback suite records while both run in parallel.
  static func device() throws -> String {
    let sinks = try Tool.run(["pactl", "list", "short", "sinks"]).out
    if !sinks.contains("alarmclock_cli") {
      try Tool.check(["pactl", "load-module", "module-null-sink", "sink_name=alarmclock_cli"])
    }
    return "pulse:alarmclock_cli"
  }

  @Test func badArgumentsAreUsageErrors() throws {
    let r = try Tool.run([CLI.binary, "play", "x.wav", "--ramp", "soon"])
    #expect(r.status == 2)
    #expect(r.err.contains("--ramp wants a duration"))
    let v = try Tool.run([CLI.binary, "play", "x.wav", "--volume", "120"])
    #expect(v.status == 2)
    let none = try Tool.run([CLI.binary, "play"])
    #expect(none.status == 2 && none.err.contains("missing SOUND"))
  }

  @Test func noDeviceExitsOneWithTheReason() throws {
    let r = try Tool.run([CLI.binary, "play", "chime-rise", "--device", "no-such-device"])
    #expect(r.status == 1)
    #expect(r.err.contains("no audio device could be opened"))
    #expect(r.err.contains("'no-such-device': snd_pcm_open failed"))
  }

  @Test(.enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
  func aBrokenFilePlaysTheFallbackToneAndSaysSo() throws {
    let dir = try TempDir("play")
    defer { dir.remove() }
    let bad = dir.file("broken.mp3")
    try "not audio".write(toFile: bad, atomically: true, encoding: .utf8)
    let r = try Tool.run([CLI.binary, "play", bad, "--device", try Self.device()])
    #expect(r.status == 0)
    #expect(r.err.contains("broken.mp3") && r.err.contains("playing the fallback tone"), "\(r.err)")
  }

  @Test(.enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
  func bundledSoundsPlayByName() throws {
    let start = Date()
    let r = try Tool.run([
      CLI.binary, "play", "klaxon", "--device", try Self.device(), "--volume", "50",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(!r.err.contains("fallback"), "\(r.err)")
    let took = Date().timeIntervalSince(start)
    #expect(took > 3.2 && took < 6, "klaxon (3.4 s) played once in \(took) s")
  }

  /// A device that goes away mid-ring (here: its sound server is killed) is reopened
  /// when it comes back, and the ring goes on.
  @Test(.enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
  func aDeviceLostMidRingIsReopened() throws {
    let dir = try TempDir("pulse2")
    defer { dir.remove() }
    let env = ["PULSE_RUNTIME_PATH": dir.path, "PULSE_SERVER": "unix:\(dir.path)/native"]
    func startServer() throws {
      try Tool.check([
        "env", "PULSE_RUNTIME_PATH=\(dir.path)", "pulseaudio", "--daemonize=yes",
        "--exit-idle-time=-1", "--use-pid-file=yes", "-n",
        "--load=module-native-protocol-unix socket=\(dir.path)/native auth-anonymous=1",
        "--load=module-null-sink sink_name=second",
      ])
    }
    func killServer() {
      let pid = (try? String(contentsOfFile: dir.file("pid"), encoding: .utf8)) ?? ""
      if let p = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(p, SIGKILL) }
      usleep(100_000)
      try? FileManager.default.removeItem(atPath: dir.file("native"))
      try? FileManager.default.removeItem(atPath: dir.file("pid"))
    }
    try startServer()
    defer { killServer() }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: CLI.binary)
    p.arguments = ["play", "two-tone", "--device", "pulse", "--seconds", "8"]
    p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let err = Pipe()
    p.standardError = err
    try p.run()
    usleep(1_500_000)
    killServer()
    usleep(700_000)
    try startServer()
    p.waitUntilExit()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(p.terminationStatus == 0, "\(text)")
    #expect(text.contains("reopening"), "\(text)")
    #expect(text.contains("reopened 'pulse'"), "\(text)")
  }
}
