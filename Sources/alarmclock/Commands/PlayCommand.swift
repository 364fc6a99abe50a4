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

    Plays SOUND (a name in the sound directories, with or without extension, or a
    path) through the same player the service uses: fade-in, volume, and the
    fallback tone when the file cannot be decoded. Without --seconds or --loop it
    plays the sound once; --seconds N rings (looping) for N seconds; --loop rings
    until interrupted (Ctrl-C).

      --device NAME     ALSA device (default "default"); repeat for fallbacks
      --volume N        0-100 % (default 80)
      --ramp DUR        fade-in time, e.g. 10s (default 0s)
      --seconds N       ring for N seconds
      --loop            loop until interrupted
      --mixer CONTROL   unmute and set this mixer control during the ring
      --sound-dir DIR   search DIR first (repeatable)

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
    sound = try arguments.positional("SOUND")
  }

  func run() -> Int32 {
    let resolver = SoundResolver(
      directories: soundDirs + SoundResolver.defaultDirectories(executablePath: executablePath()))
    var path: String? = nil
    var problem: SoundError? = nil
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
    let player: Player
    do {
      player = try Player()
    } catch {
      printError("alarmclock play: \(error)")
      return ExitCode.failure
    }
    let verbose = getenv("ALARMCLOCK_AUDIO_DEBUG") != nil
    let ringer: Ringer
    do {
      ringer = try Ringer(
        defaultSound: nil,
        log: { level, text in
          if level <= .warning || verbose { printError("alarmclock play: \(text)") }
        },
        events: { player.handle($0) })
    } catch {
      printError("alarmclock play: cannot start the ringer: \(error)")
      return ExitCode.failure
    }
    installInterrupt(player)
    ringer.start(request)
    while true {
      switch player.wait() {
      case .ended: return ExitCode.ok
      case .noDevice:
        ringer.stop()
        let tried = request.devices.joined(separator: ", ")
        printError("alarmclock play: no audio device could be opened (tried \(tried))")
        return ExitCode.failure
      case .interrupted:
        ringer.stop()
        _ = player.wait()  // the .stopped that follows: the mixer is restored by then
        return ExitCode.ok
      case .progress: continue
      }
    }
  }
}

/// What the main thread waits for: ring events turned into wake-ups through a pipe.
private final class Player: Sendable {
  enum Wake: Equatable { case progress, ended, noDevice, interrupted }
  private let pipe: (read: FileDescriptor, write: FileDescriptor)
  private let state = Locked<(queue: [Wake], played: Bool)>(([], false))

  init() throws(SystemError) { pipe = try FileDescriptor.pipe() }

  /// For the signal handler, which may only make a raw write(2).
  var interruptFD: Int32 { pipe.write.rawValue }

  func handle(_ event: RingerEvent) {
    switch event {
    case .fallbackTone(let error):
      printError("alarmclock play: \(error); playing the fallback tone")
    case .deviceOpened(let device, let isFallback):
      if isFallback { printError("alarmclock play: playing on fallback device '\(device)'") }
    case .deviceReopened(let device):
      printError("alarmclock play: reopened '\(device)'; the sound goes on")
    case .firstFrame:
      state.withLock { $0.played = true }
    case .noDevice:
      // Before any sound: give up (exit 1). Mid-ring (a speaker unplugged): the ringer
      // keeps retrying, as it would for an alarm.
      if !state.withLock({ $0.played }) { push(.noDevice) }
    case .stopped: push(.ended)
    default: break
    }
    push(.progress)
  }

  private func push(_ w: Wake) {
    state.withLock { $0.queue.append(w) }
    try? pipe.write.writeAll([1])
  }

  func wait() -> Wake {
    while true {
      if let w = state.withLock({ s -> Wake? in s.queue.isEmpty ? nil : s.queue.removeFirst() }) {
        return w
      }
      if (try? pipe.read.readSome(maxCount: 1)) == [2] { return .interrupted }
    }
  }
}

/// The pipe SIGINT/SIGTERM write to. Set once before the handlers are installed and only
/// read afterwards (by the handler), so the unsynchronized access is safe.
nonisolated(unsafe) private var interruptPipe: Int32 = -1

private func installInterrupt(_ player: Player) {
  interruptPipe = player.interruptFD
  let handler: @convention(c) (Int32) -> Void = { _ in
    var byte: UInt8 = 2
    _ = write(interruptPipe, &byte, 1)
  }
  signal(SIGINT, handler)
  signal(SIGTERM, handler)
}
