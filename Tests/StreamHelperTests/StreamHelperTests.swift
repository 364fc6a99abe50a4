import AlarmCore
import AudioTestSupport
import Foundation
import Testing

/// The built `alarmclock-stream` against a real HTTP server on loopback: what it plays
/// (the tone's own 660 Hz), how it paces it, and the `problem` each fault turns into.
/// Serialized: the pacing is measured in wall-clock time.
@Suite(.serialized) struct StreamHelperTests {
  let server: StreamServer

  init() throws { server = try StreamServer.shared.get() }

  /// The tone is there: 660 Hz dominates the other frequencies tried by far.
  static func expectTone(_ run: HelperRun, sourceLocation: SourceLocation = #_sourceLocation) {
    let samples = run.firstChannel
    let from = run.rate / 5
    guard let window = Signal.window(samples, from, from + run.rate / 2) else {
      Issue.record("only \(samples.count) frames of PCM", sourceLocation: sourceLocation)
      return
    }
    let tone = Signal.goertzel(window, frequency: 660, rate: Double(run.rate))
    for other in [440.0, 550, 770, 880, 1320] {
      let power = Signal.goertzel(window, frequency: other, rate: Double(run.rate))
      #expect(
        tone > 20 * power, "660 Hz \(tone) vs \(other) Hz \(power)", sourceLocation: sourceLocation)
    }
    // lavfi's sine is at 1/8 of full scale (its mono copied to two channels at -3 dB).
    #expect(Signal.rms(window) > 0.02, sourceLocation: sourceLocation)
  }

  @Test func playsAnMP3FileAtRealTimeAfterAOneSecondPreroll() throws {
    let run = try HelperRun(url: server.url("tone.mp3"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 1.0 })
    let ready = try #require(run.ready)
    #expect(ready.live == false)
    #expect(ready.codec.hasPrefix("mp3"))
    #expect(ready.sourceRate == 44_100)
    #expect(ready.url == server.url("tone.mp3"))
    // The pre-roll comes at once; after it the flow is real time, not the download's.
    let first = try #require(run.firstPCM)
    #expect(run.elapsed - first < 0.5)
    try run.read(timeout: 5) { $0.elapsed >= first + 2 }
    #expect(abs(run.pcmSeconds - 3.0) < 0.25, "\(run.pcmSeconds) s of PCM after 2 s")
    #expect(run.problem == nil)
    Self.expectTone(run)
  }

  @Test func theReadyFrameHidesAPassword() throws {
    let url = server.url("tone.mp3").replacingOccurrences(of: "//", with: "//radio:secret@")
    let run = try HelperRun(url: url)
    #expect(try run.read(timeout: 3) { $0.ready != nil })
    #expect(
      run.ready?.url == server.url("tone.mp3").replacingOccurrences(of: "//", with: "//radio:***@"))
  }

  @Test func followsAPLSPlaylistAndSaysWhichEntry() throws {
    let run = try HelperRun(url: server.url("tone.pls"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 1.0 })
    #expect(run.texts(.notice).first?.contains("entry 1 of 1, " + server.url("tone.mp3")) == true)
    #expect(run.ready?.url == server.url("tone.mp3"))
    Self.expectTone(run)
  }

  @Test func recognisesAPlaylistByItsMIMETypeAlone() throws {
    let run = try HelperRun(url: server.url("noext"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 1.0 })
    #expect(run.ready?.url == server.url("tone.mp3"))
  }

  @Test func followsAnM3UToALiveStreamWithICYTitles() throws {
    let run = try HelperRun(url: server.url("tone.m3u"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 1.0 && !$0.texts(.title).isEmpty })
    #expect(run.ready?.live == true)
    #expect(run.texts(.title) == ["Test Tone 660"])
    #expect(run.texts(.notice).contains("station: Loopback Test Radio"))
    Self.expectTone(run)
    if let rss = run.residentKiB { print("alarmclock-stream VmRSS while playing: \(rss) kB") }
  }

  @Test func skipsABrokenPlaylistEntryAndFollowsNestedOnes() throws {
    let run = try HelperRun(url: server.url("nested.pls"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 0.5 })
    let notices = run.texts(.notice)
    #expect(notices.count >= 3)
    #expect(notices.first?.hasSuffix(server.url("missing.mp3")) == true)
    #expect(run.ready?.url == server.url("live.mp3"))
  }

  @Test func decodesHLS() throws {
    let run = try HelperRun(url: server.url("hls/index.m3u8"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 1.0 })
    #expect(run.ready?.codec == "aac")
    Self.expectTone(run)
  }

  @Test func downmixesToMonoAtTheRequestedRate() throws {
    let run = try HelperRun(url: server.url("tone.mp3"), rate: 22_050, channels: 1)
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 1.0 })
    Self.expectTone(run)
  }

  @Test(arguments: ["short.mp3", "norange/short.mp3"])
  func loopsAFiniteStreamBySeekingOrReopening(path: String) throws {
    // 1 s of tone: 2.3 s of PCM means two loops, seekable or not.
    let run = try HelperRun(url: server.url(path))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 2.3 })
    #expect(run.problem == nil)
  }

  @Test func withoutLoopAFileEndsAfterItsAudio() throws {
    let run = try HelperRun(url: server.url("short.mp3"), loop: false)
    #expect(try run.read(timeout: 3) { $0.problem != nil })
    #expect(run.problem?.text == "the stream ended")
    #expect(abs(run.pcmSeconds - 1.0) < 0.1)
    #expect(run.exits(within: 1))
  }

  /// Every fault: its problem, within 3 s, and the helper gone (status 0).
  @Test(arguments: [
    ("loop", "too many redirects"),
    ("missing.mp3", "HTTP error 404 Not Found"),
    ("stall.mp3", "timed out: no data for 1 s"),
    ("stall-later.mp3", "timed out: no data for 1 s"),
    ("ends.mp3", "the server ended the stream"),
    ("garbage.mp3", "not audio"),
    ("local.m3u8", "only http:// and https:// addresses are opened"),
  ])
  func faultsBecomeProblems(path: String, expected: String) throws {
    let run = try HelperRun(url: server.url(path))
    #expect(try run.read(timeout: 3) { $0.problem != nil })
    let problem = try #require(run.problem)
    #expect(problem.text.hasPrefix(expected), "\(path): \(problem.text)\n\(run.log)")
    #expect(run.exits(within: 1))
    #expect(run.process.terminationStatus == 0)
  }

  @Test func aRefusedConnectionIsSaidSo() throws {
    let run = try HelperRun(url: "http://127.0.0.1:\(try FreePort.loopback())/radio.mp3")
    #expect(try run.read(timeout: 3) { $0.problem != nil })
    #expect(run.problem?.text == "connection refused")
  }

  @Test func aStationSendingSilenceIsAProblemAfterFourSeconds() throws {
    let run = try HelperRun(url: server.url("silence.mp3"))
    #expect(try run.read(timeout: 6) { $0.problem != nil })
    #expect(run.problem?.text == "the station has sent only silence for 4 s")
    // Four seconds of audio: the one-second pre-roll, then three at real time.
    #expect(abs(run.pcmSeconds - 4.0) < 0.1)
    let first = try #require(run.firstPCM)
    let problem = try #require(run.problem)
    #expect(problem.at - first > 2.7 && problem.at - first < 3.6)
  }

  @Test func aBadRequestGetsAProblem() throws {
    let run = try HelperRun(line: "GET / HTTP/1.0\n")
    #expect(try run.read(timeout: 3) { $0.problem != nil })
    #expect(run.problem?.text.hasPrefix("bad request: ") == true)
    let file = try HelperRun(line: "ALARMCLOCK-STREAM/1 url=file:///etc/passwd\n")
    #expect(try file.read(timeout: 3) { $0.problem != nil })
    #expect(file.problem?.text == "bad request: a stream must be an http:// or https:// URL")
  }

  @Test func theClientClosingEndsTheHelper() throws {
    let run = try HelperRun(url: server.url("live.mp3"))
    #expect(try run.read(timeout: 3) { $0.pcmSeconds >= 0.5 })
    run.close()
    #expect(run.exits(within: 1))
  }
}
