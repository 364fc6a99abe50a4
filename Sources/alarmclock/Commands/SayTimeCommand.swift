import AlarmAudio
import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock say-time`: says the time and the next alarm through the speaker.
struct SayTimeCommand: Command {
  static let name = "say-time"
  static let summary = "say the time and the next alarm through the speaker"
  static let help = """
    usage: alarmclock say-time [--config PATH] [--state-dir DIR] [--device NAME]...
                               [--print] [--at ISO-8601]

    Says the time and the next alarm ("It's eleven ten. The next alarm is Work, at
    six forty-five tomorrow." / "現在晚上十一點十分。下一個鬧鐘：明天上午六點四十五分，
    Work。") with espeak-ng, in the config's [voice] language (else the locale's), rate
    and volume, on the config's audio device (and its fallbacks). The next alarm counts
    the service's skips and rung one-offs, read from its state file.

      --device NAME     ALSA device instead of the config's (repeat for fallbacks)
      --print           print the sentence instead of saying it
      --at ISO-8601     as if it were then (2027-03-28T06:45:00+02:00, a local
                        2027-03-28T06:00 or a date), for scripts and tests
      --state-dir DIR   where the service's state file is (default: the config's)

    Exit 1 when the config cannot be used, espeak-ng is missing or fails, or no audio
    device can be opened.
    """

  var configPath: String?
  var stateDir: String?
  var devices: [String]
  var printOnly: Bool
  var at: String?

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    stateDir = try arguments.option("--state-dir")
    devices = try arguments.options("--device")
    printOnly = arguments.flag("--print")
    at = try arguments.option("--at")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    let loaded: OfflineConfig
    switch OfflineConfig.load(ConfigFile.path(configPath, environment: env), environment: env) {
    case .failure(let e):
      for line in e.lines { printError(line) }
      return ExitCode.failure
    case .success(let l): loaded = l
    }
    var now = currentInstant()
    if let at {
      guard let instant = ISO8601Text.parse(at, in: loaded.zone) else {
        printError(
          "alarmclock say-time: --at wants an ISO 8601 time such as 2027-03-28T06:45:00+02:00, not '\(at)'"
        )
        return ExitCode.usage
      }
      now = instant
    }
    let voice = loaded.config.voice
    let locale = voice.locale(environment: env)
    let sentence = Self.sentence(loaded, stateDir: stateDir, now: now, locale: locale)
    if printOnly {
      printOut(sentence)
      return ExitCode.ok
    }
    return say(sentence, voice: voice, locale: locale, audio: loaded.config.audio)
  }

  /// The time at `now` and the next firing after it, in `locale`.
  static func sentence(
    _ loaded: OfflineConfig, stateDir: String?, now: Instant, locale: DisplayLocale
  ) -> String {
    let config = loaded.config
    let zone = loaded.zone
    let marks = AlarmListing.savedMarks(config, stateDir: stateDir)
    var next: (at: Instant, label: String)?
    if let f = UpcomingFiring.list(
      config.alarms, zone: zone, daysOff: loaded.daysOff(at: now), after: now, count: 1,
      marks: marks
    ).first, let at = ISO8601Text.parse(f.at, in: zone), let alarm = config.alarm(id: f.id) {
      next = (at, AlarmText(locale).label(alarm))
    }
    return SpokenText(locale).timeAndNext(at: now, next: next, zone: zone)
  }

  private func say(
    _ sentence: String, voice: VoiceConfig, locale: DisplayLocale, audio: AudioConfig
  ) -> Int32 {
    guard let dir = Self.temporaryDirectory() else {
      printError("alarmclock say-time: cannot make a temporary directory")
      return ExitCode.failure
    }
    let wav = dir + "/speech.wav"
    defer {
      try? FileSystem.remove(wav)
      rmdir(dir)
    }
    do throws(SpeechError) {
      try SpeechSynthesizer(path: processEnvironment()["PATH"]).synthesize(
        sentence, locale: locale, rate: voice.rate, to: wav)
    } catch {
      printError("alarmclock say-time: \(error)")
      printOut(sentence)
      return ExitCode.failure
    }
    let chosen = devices.isEmpty ? audio.devices : devices
    var request = RingRequest(
      sound: wav, volume: voice.volume, ramp: .zero, loop: false, devices: chosen)
    request.tryEveryCard = false
    return SoundPlayback.play(request, name: Self.name)
  }

  /// A private directory for the speech file (mode 0700), under $TMPDIR or /tmp.
  private static func temporaryDirectory() -> String? {
    let base = processEnvironment()["TMPDIR"] ?? "/tmp"
    var template = Array((base + "/alarmclock-say.XXXXXX").utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
  }
}
