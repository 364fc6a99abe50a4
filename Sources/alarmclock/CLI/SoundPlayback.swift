import AlarmAudio
import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Plays one ring request in the foreground through the service's Ringer, for the commands
/// that make sound (`play`, `say-time`): Ctrl-C stops it, the messages name the command.
enum SoundPlayback {
  /// Plays `request` until it ends; 0 when it played, 1 when no device could be opened.
  static func play(_ request: RingRequest, name: String) -> Int32 {
    let player: Player
    do {
      player = try Player(name: name)
    } catch {
      printError("alarmclock \(name): \(error)")
      return ExitCode.failure
    }
    let verbose = getenv("ALARMCLOCK_AUDIO_DEBUG") != nil
    let ringer: Ringer
    do {
      ringer = try Ringer(
        defaultSound: nil,
        log: { level, text in
          if level <= .warning || verbose { printError("alarmclock \(name): \(text)") }
        },
        events: { player.handle($0) }, streams: .besideExecutable)
    } catch {
      printError("alarmclock \(name): cannot start the ringer: \(error)")
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
        printError("alarmclock \(name): no audio device could be opened (tried \(tried))")
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
  /// The command, for messages.
  private let name: String

  init(name: String) throws(SystemError) {
    self.name = name
    pipe = try FileDescriptor.pipe()
  }

  /// For the signal handler, which may only make a raw write(2).
  var interruptFD: Int32 { pipe.write.rawValue }

  func handle(_ event: RingerEvent) {
    switch event {
    case .fallbackTone(let error):
      printError("alarmclock \(name): \(error); playing the fallback tone")
    case .deviceOpened(let device, let isFallback):
      if isFallback { printError("alarmclock \(name): playing on fallback device '\(device)'") }
    case .deviceReopened(let device):
      printError("alarmclock \(name): reopened '\(device)'; the sound goes on")
    case .firstFrame:
      state.withLock { $0.played = true }
    case .noDevice:
      // Before any sound: give up (exit 1). Mid-ring (a speaker unplugged): the ringer
      // keeps retrying, as it would for an alarm.
      if !state.withLock({ $0.played }) { push(.noDevice) }
    case .streamPlaying(let url):
      printError("alarmclock \(name): playing the stream \(url)")
    case .streamFallback(let url, let reason):
      printError("alarmclock \(name): stream \(url): \(reason); playing the fallback sound")
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
