import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every way a station fails, made for real and heard from a null sink: the stream's 660 Hz
/// until the fault, the fallback's 440 Hz within 2 s of it, never a silence as long.
/// `alarmclock play URL` (the same StreamSource, feed and helper as an alarm) against the
/// fault server (Tests/Fixtures/stream/server.py), a real Icecast server stalled with
/// SIGSTOP, and an address black-holed in a network namespace of the test's own.
@Suite(
  .serialized,
  .enabled(if: PulseTestServer.available, PulseTestServer.skipComment),
  .enabled(if: IcecastServer.available, "icecast2 and ffmpeg are needed (scripts/deps test)"))
struct StreamFaultTests {
  static let sink = "alarmclock_stream_faults"
  static let station = 660.0
  static let fallback = 440.0

  struct Played {
    var samples: [Float]
    var rec: SinkRecorder
    var start: Double
    var stderr: String
  }

  /// `play url --seconds seconds --fallback tone`, recorded; `launcher` runs it (a netns).
  static func play(
    _ url: String, seconds: Int, dir: TempDir, launcher: [String] = [],
    environment: [String: String] = [:], during: ((Double) throws -> Void)? = nil
  ) throws -> Played {
    let tone = try ServiceRingTests.writeTone(dir)
    let device = try PulseTestServer.device(ownSink: sink)
    let rec = try SinkRecorder(directory: dir.path, sink: sink)
    let start = realtimeNow()
    let argv =
      launcher + [
        CLI.binary, "play", url, "--seconds", String(seconds), "--fallback", tone, "--device",
        device, "--volume", "100",
      ]
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = argv
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    try during?(start)
    let said = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let samples = rec.finish(through: start + Double(seconds))
    return Played(
      samples: samples, rec: rec, start: start, stderr: String(decoding: said, as: UTF8.self))
  }

  /// The pitch of [from, to) seconds after the start, nil when quiet or not recorded.
  static func pitch(_ p: Played, _ from: Double, _ to: Double) -> Double? {
    ServiceStreamTests.pitch(p.samples, p.rec, from: p.start + from, to: p.start + to)
  }

  static func gap(_ p: Played, _ from: Double, _ to: Double) -> Double {
    ServiceStreamTests.longestGap(p.samples, p.rec, from: p.start + from, to: p.start + to)
  }

  static func near(_ f: Double?, _ want: Double) -> Bool { f.map { abs($0 - want) < 20 } == true }

  /// The start of the first 100 ms window in [from, to) sounding at `frequency`.
  static func firstWindow(_ p: Played, of frequency: Double, from: Double, to: Double)
    -> Double?
  {
    var t = from
    while t + 0.1 <= to {
      if near(pitch(p, t, t + 0.1), frequency) { return t }
      t += 0.05
    }
    return nil
  }

  /// A station that cannot be had at all rings the fallback from the first frame, and
  /// says why.
  @Test(arguments: [
    ("missing.mp3", "HTTP error 404"),
    ("loop", "too many redirects"),
    ("stall.mp3", "timed out: no data for 1 s"),
    ("garbage.mp3", "not audio"),
  ])
  func aStationThatFailsAtOnceRingsTheFallbackFromItsFirstFrame(path: String, reason: String)
    throws
  {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let server = try StreamServer.shared.get()
    let p = try Self.play(server.url(path), seconds: 4, dir: dir)
    #expect(Self.near(Self.pitch(p, 0.6, 3.7), Self.fallback), "\(path): \(p.stderr)")
    #expect(Self.gap(p, 0.6, 3.7) < 0.2)
    #expect(p.stderr.contains("playing the fallback sound"), "\(p.stderr)")
    #expect(p.stderr.contains(reason), "\(path): \(p.stderr)")
  }

  /// https is checked: a certificate the helper is told to trust (a station's private CA,
  /// `$ALARMCLOCK_STREAM_CA_FILE`) plays the station; the same one untrusted rings the
  /// fallback, never audio from a server that could be anyone.
  @Test func httpsPlaysOnlyFromATrustedCertificate() throws {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let server = try StreamServer.shared.get()
    let trusted = try Self.play(
      server.tlsURL("live.mp3"), seconds: 3, dir: dir,
      environment: ["ALARMCLOCK_STREAM_CA_FILE": server.caFile])
    #expect(Self.near(Self.pitch(trusted, 1.0, 2.7), Self.station), "\(trusted.stderr)")
    let untrusted = try Self.play(server.tlsURL("live.mp3"), seconds: 3, dir: dir)
    #expect(Self.near(Self.pitch(untrusted, 0.6, 2.7), Self.fallback), "\(untrusted.stderr)")
    #expect(
      untrusted.stderr.contains("https: the server's certificate is not trusted"),
      "\(untrusted.stderr)")
  }

  @Test func aRefusedConnectionRingsTheFallback() throws {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let p = try Self.play(
      "http://127.0.0.1:\(try FreePort.loopback())/live.mp3", seconds: 3, dir: dir)
    #expect(Self.near(Self.pitch(p, 0.6, 2.7), Self.fallback))
    #expect(p.stderr.contains("connection refused"), "\(p.stderr)")
  }

  /// The station plays, then its server sends nothing more (the connection stays open):
  /// the fallback within 2 s.
  @Test(arguments: ["stall-later.mp3", "ends.mp3"])
  func aStationThatStopsMidwayIsReplacedWithin2s(path: String) throws {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let server = try StreamServer.shared.get()
    let p = try Self.play(server.url(path), seconds: 6, dir: dir)
    let heard = Self.firstWindow(p, of: Self.station, from: 0.2, to: 5.8)
    #expect(heard != nil, "\(path): the station was never heard: \(p.stderr)")
    let switched = heard.flatMap { Self.firstWindow(p, of: Self.fallback, from: $0, to: 5.8) }
    #expect(switched != nil, "\(path): no fallback after the station: \(p.stderr)")
    #expect(Self.gap(p, 0.5, 5.8) < 2.0)
    #expect(p.stderr.contains("playing the fallback sound"), "\(p.stderr)")
  }

  /// A station that sends only digital silence is a fault once it has lasted 4 s (a pause
  /// in speech or a quiet passage is shorter and louder than -55 dBFS): the fallback then.
  @Test func aStationSendingSilenceIsReplacedAfterFourSeconds() throws {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let server = try StreamServer.shared.get()
    let p = try Self.play(server.url("silence.mp3"), seconds: 7, dir: dir)
    // The fallback rings for the moment before the stream's first audio, then the
    // station's silence, then the fallback again once the helper has sent 4 s of silence:
    // 2-4 s after the silence is heard, as what is buffered ahead of the speaker is
    // dropped at the switch.
    var quiet: Double? = nil
    var t = 0.2
    while quiet == nil && t < 3 {
      let a = p.rec.frameIndex(realtime: p.start + t)
      let b = p.rec.frameIndex(realtime: p.start + t + 0.1)
      if b <= p.samples.count, Signal.rms(p.samples[a..<b]) < 0.001 { quiet = t }
      t += 0.05
    }
    let switched = quiet.flatMap { Self.firstWindow(p, of: Self.fallback, from: $0, to: 6.8) }
    var after: Double? = nil
    if let quiet, let switched { after = switched - quiet }
    #expect(
      after.map { $0 > 1.5 && $0 < 5.0 } == true,
      "silence from \(String(describing: quiet)) s, fallback at \(String(describing: switched)) s: \(p.stderr)"
    )
    #expect(p.stderr.contains("only silence"), "\(p.stderr)")
  }

  /// A real Icecast server that stops answering mid-stream (SIGSTOP: the TCP connection
  /// open, nothing sent): the fallback within 2 s, and the station again after SIGCONT.
  @Test func aStalledIcecastServerIsReplacedWithin2sAndComesBack() throws {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let station = try IcecastServer(directory: dir.path, frequency: Self.station)
    defer { station.kill() }
    var stoppedAt = 0.0
    var contAt = 0.0
    let p = try Self.play(station.url, seconds: 14, dir: dir) { start in
      try waitUntil(timeout: 10, "the station to play") { realtimeNow() > start + 3 }
      stoppedAt = realtimeNow() - start
      station.signal(SIGSTOP)
      try waitUntil(timeout: 10, "the fallback to ring") { realtimeNow() > start + 6 }
      contAt = realtimeNow() - start
      station.signal(SIGCONT)
    }
    #expect(Self.near(Self.pitch(p, 1.0, stoppedAt - 0.1), Self.station), "\(p.stderr)")
    let switched = Self.firstWindow(p, of: Self.fallback, from: stoppedAt, to: contAt)
    #expect(
      switched.map { $0 - stoppedAt < 2.0 } == true,
      "the fallback \(switched.map { "\($0 - stoppedAt) s" } ?? "never") after the stall: \(p.stderr)"
    )
    #expect(Self.near(Self.pitch(p, stoppedAt + 2.1, contAt - 0.1), Self.fallback))
    #expect(Self.near(Self.pitch(p, 12.5, 13.8), Self.station), "back after SIGCONT: \(p.stderr)")
    #expect(Self.gap(p, 0.6, 13.8) < 2.0)
    #expect(p.stderr.contains("timed out"), "\(p.stderr)")
  }

  /// An address that never answers (black-holed in a network namespace of the test's
  /// own): the fallback from the first frame.
  @Test(.enabled(if: getuid() == 0, "network namespaces need root (CI runs as root)"))
  func aBlackHoledAddressRingsTheFallback() throws {
    let dir = try TempDir("stream-fault")
    defer { dir.remove() }
    let ns = "alarmclock-bh-\(getpid())"
    try Tool.check(["ip", "netns", "add", ns])
    defer { _ = try? Tool.run(["ip", "netns", "delete", ns]) }
    // A veth pair (both ends in the namespace); the station's address is a neighbour whose
    // MAC no interface has: its SYNs leave and are dropped, and nothing ever answers.
    for cmd in [
      ["link", "set", "lo", "up"],
      ["link", "add", "void0", "type", "veth", "peer", "name", "void1"],
      ["addr", "add", "10.203.0.1/24", "dev", "void0"], ["link", "set", "void0", "up"],
      ["link", "set", "void1", "up"],
      ["neigh", "add", "10.203.0.2", "lladdr", "02:00:00:00:00:99", "dev", "void0"],
    ] {
      try Tool.check(["ip", "-n", ns] + cmd)
    }
    let p = try Self.play(
      "http://10.203.0.2:8000/live.mp3", seconds: 4, dir: dir,
      launcher: ["ip", "netns", "exec", ns])
    #expect(Self.near(Self.pitch(p, 0.6, 3.7), Self.fallback), "\(p.stderr)")
    #expect(Self.gap(p, 0.6, 3.7) < 0.2)
    #expect(p.stderr.contains("playing the fallback sound"), "\(p.stderr)")
  }
}
