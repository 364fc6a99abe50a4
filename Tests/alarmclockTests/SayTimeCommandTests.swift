import AudioTestSupport
import Foundation
import Testing

/// `alarmclock say-time` as the built binary: the sentence in both languages, and real
/// espeak-ng speech through real ALSA into a null sink, recorded and told from a tone.
@Suite(.serialized) struct SayTimeCommandTests {
  static let config = """
    [settings]
    timezone = "Europe/Berlin"

    [[alarm]]
    id = "work"
    time = "06:45"
    days = "weekdays"
    label = "Work"
    """

  func fixture(_ text: String = config) throws -> (TempDir, String) {
    let dir = try TempDir("saytime")
    return (dir, try dir.write("alarms.toml", text))
  }

  func say(_ args: [String], lang: String = "C.UTF-8") throws -> CLIResult {
    try CLI.run(["say-time"] + args, environment: ["LANG": lang])
  }

  @Test func theSentenceInBothLanguages() throws {
    let (dir, config) = try fixture()
    defer { dir.remove() }
    // Friday 2027-01-15 23:10 in Berlin: the next is Monday's 06:45.
    let at = [
      "--config", config, "--state-dir", dir.file("state"), "--print", "--at", "2027-01-15T23:10",
    ]
    let en = try say(at)
    #expect(en.status == 0, "\(en.stderr)")
    #expect(
      en.stdout == "It's eleven ten. The next alarm is Work, at six forty-five in three days.\n")
    let zh = try say(at, lang: "zh_TW.UTF-8")
    #expect(zh.stdout == "現在晚上十一點十分。下一個鬧鐘：三天後上午六點四十五分，Work。\n")
    let sunday = try say(
      ["--config", config, "--state-dir", dir.file("state"), "--print", "--at", "2027-01-17T21:00"])
    #expect(
      sunday.stdout == "It's nine o'clock. The next alarm is Work, at six forty-five tomorrow.\n")
  }

  @Test func voiceLanguageOverridesTheLocaleAndBadInputIsRefused() throws {
    let (dir, config) = try fixture("[voice]\nlanguage = \"zh_TW\"\n\n" + Self.config)
    defer { dir.remove() }
    let r = try say(["--config", config, "--print", "--at", "2027-01-18T06:00"])
    #expect(r.stdout == "現在上午六點整。下一個鬧鐘：今天上午六點四十五分，Work。\n")
    let bad = try say(["--config", config, "--print", "--at", "soon"])
    #expect(bad.status == 2 && bad.stderr.contains("--at wants an ISO 8601 time"))
    let (none, empty) = try fixture("")
    defer { none.remove() }
    let quiet = try say(["--config", empty, "--print", "--at", "2027-01-18T06:00"])
    #expect(quiet.stdout == "It's six o'clock. No alarm is set.\n")
  }

  @Test func withoutEspeakItSaysWhyAndPrintsTheSentence() throws {
    let (dir, config) = try fixture()
    defer { dir.remove() }
    let r = try CLI.run(
      ["say-time", "--config", config, "--device", "null"],
      environment: ["LANG": "C.UTF-8", "PATH": dir.path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("espeak-ng is not installed"), "\(r.stderr)")
    #expect(r.stdout.hasPrefix("It's "))
  }

  /// Real speech: espeak-ng's output through the same Ringer as a ring, into a null sink.
  /// Speech is not a tone: it has pauses between words, and its pitch and formants move.
  @Test(.enabled(if: PulseTestServer.available && Self.hasEspeak, PulseTestServer.skipComment))
  func speechIsHeardOnTheDevice() throws {
    let (dir, config) = try fixture()
    defer { dir.remove() }
    let device = try PlayCommandTests.device()
    let recorder = try SinkRecorder(directory: dir.path, sink: "alarmclock_cli")
    let start = realtimeNow()
    let r = try say(["--config", config, "--device", device, "--at", "2027-01-15T23:10"])
    let end = realtimeNow()
    #expect(r.status == 0, "\(r.stderr)")
    let samples = recorder.finish(through: end + 0.3)
    let from = recorder.frameIndex(realtime: start)
    guard let onset = Signal.onset(samples, threshold: 0.02, from: from),
      let last = Signal.lastAbove(samples, threshold: 0.02)
    else {
      Issue.record("nothing was heard")
      return
    }
    let seconds = Double(last - onset) / SinkRecorder.rate
    #expect(seconds > 2 && seconds < 12, "speech lasted \(seconds) s")
    // 50 ms windows over the speech: some quiet (pauses), some loud, and the loud ones'
    // zero-crossing rate spread wide (a tone's is one value).
    let step = Int(SinkRecorder.rate * 0.05)
    var quiet = 0
    var crossings: [Double] = []
    var i = onset
    while i + step <= last {
      let w = samples[i..<(i + step)]
      if Signal.rms(w) < 0.01 {
        quiet += 1
      } else {
        crossings.append(Signal.zeroCrossingFrequency(w, rate: SinkRecorder.rate))
      }
      i += step
    }
    let windows = quiet + crossings.count
    #expect(quiet * 20 > windows, "pauses: \(quiet) of \(windows) windows")
    let spread = (crossings.max() ?? 0) - (crossings.min() ?? 0)
    #expect(
      spread > 500, "zero-crossing rates from \(crossings.min() ?? 0) to \(crossings.max() ?? 0) Hz"
    )
  }

  static let hasEspeak = FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng")
}
