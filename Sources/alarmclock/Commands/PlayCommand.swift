import AlarmAudio
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock play`: rings a sound exactly as an alarm would (same Ringer, fade-in and
/// fallback tone), to test a speaker and a file.
struct PlayCommand: Command {
  static let name = "play"
  static let summary = "play a sound as an alarm would (test a speaker and a file)"
  static let help = """
    usage: alarmclock play SOUND [--device NAME]... [--volume N] [--ramp DUR]
                               [--seconds N] [--loop] [--mixer CONTROL] [--sound-dir DIR]...
                               [--fallback SOUND]

    Plays SOUND (a name in the sound directories, with or without extension, or a
    path) through the same player the service uses: fade-in, volume, and the
    fallback tone when the file cannot be decoded. Without --seconds or --loop it
    plays the sound once; --seconds N rings (looping) for N seconds; --loop rings
    until interrupted (Ctrl-C).

    SOUND may be a stream's http:// or https:// URL (a station, a playlist, HLS):
    it plays through the stream helper as an alarm's would, until interrupted or
    --seconds, and says when its fallback (--fallback, else the bundled sound)
    rings instead and why.

      --device NAME     ALSA device (default "default"); repeat for fallbacks
      --volume N        0-100 % (default 80)
      --ramp DUR        fade-in time, e.g. 10s (default 0s)
      --seconds N       ring for N seconds
      --loop            loop until interrupted
      --mixer CONTROL   unmute and set this mixer control during the ring
      --sound-dir DIR   search DIR first (repeatable)
      --fallback SOUND  for a stream: what rings when it cannot (a name or path)

    Exit 0 when played; 1 when no device can be opened (the message says why).
    """

  var sound: String
  var devices: [String]
  var volume: Int
  var ramp: Duration
  var seconds: Int?
  var loop: Bool
  var mixer: String?
  var soundDirs: [String]
  var fallback: String?

  init(arguments: inout Arguments) throws(UsageError) {
    devices = try arguments.options("--device")
    soundDirs = try arguments.options("--sound-dir")
    volume = try arguments.intOption("--volume", in: 0...100) ?? 80
    if let text = try arguments.option("--ramp") {
      guard let d = DurationText.parse(text) else {
        throw UsageError("--ramp wants a duration like 10s or 1m30s, not '\(text)'")
      }
      ramp = d
    } else {
      ramp = .zero
    }
    seconds = try arguments.intOption("--seconds", in: 1...86_400)
    loop = arguments.flag("--loop")
    mixer = try arguments.option("--mixer")
    fallback = try arguments.option("--fallback")
    sound = try arguments.positional("SOUND")
  }

  func run() -> Int32 {
    let resolver = SoundResolver(
      directories: soundDirs + SoundResolver.defaultDirectories(executablePath: executablePath()))
    var path: String? = nil
    var problem: SoundError? = nil
    if StreamURL.isStream(sound) {
      if let why = StreamURL.problem(sound) {
        printError("alarmclock play: \(sound): \(why)")
        return ExitCode.usage
      }
      var request = RingRequest(
        sound: nil, volume: volume, ramp: ramp, loop: true,
        maxDuration: seconds.map { .seconds($0) },
        devices: devices.isEmpty ? ["default"] : devices,
        mixer: mixer.map { MixerSetting(control: $0) })
      var stream = StreamSound(url: sound, fallback: resolver.defaultSound())
      if let fallback {
        do throws(SoundError) {
          stream.fallback = access(fallback, F_OK) == 0 ? fallback : try resolver.resolve(fallback)
        } catch {
          stream.fallbackProblem = error
        }
      }
      request.stream = stream
      request.tryEveryCard = false
      return SoundPlayback.play(request, name: "play")
    }
    if access(sound, F_OK) == 0 {
      path = sound
    } else {
      do throws(SoundError) { path = try resolver.resolve(sound) } catch { problem = error }
    }
    var request = RingRequest(
      sound: path, volume: volume, ramp: ramp, loop: loop || seconds != nil,
      maxDuration: seconds.map { .seconds($0) },
      devices: devices.isEmpty ? ["default"] : devices,
      mixer: mixer.map { MixerSetting(control: $0) })
    // The ringer reports it (`.fallbackTone`), printed once below.
    request.unplayable = problem
    // `play` tests the devices named; an alarm's last resort (every card) would hide a
    // device that does not work.
    request.tryEveryCard = false
    return SoundPlayback.play(request, name: "play")
  }
}
