import AlarmAudio
import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The service's speech (a press while nothing rings: the time and the next alarm): the
/// sentence is synthesized by espeak-ng in a child process the loop watches (a runner of
/// its own, so speech never takes a hook's place), then played on a Ringer of its own,
/// made for the sentence and dropped after it, so nothing of it is resident while idle.
///
/// An alarm always wins: `silence()`, called before every ring and prepare, drops the
/// sentence being made and stops the one being said, so speech never delays a firing and
/// never holds the device the ring needs. Speech never falls back to a tone. Loop thread
/// only.
final class SpeechCoordinator {
  private let loop: EventLoop
  private let log: Logger
  private let directory: String
  private let runner: HookRunner
  /// Counts requests: a finished synthesis of an older one (silenced meanwhile) is dropped.
  private var generation = 0
  /// The request being synthesized, and how to play it when done.
  private var pending: (generation: Int, request: RingRequest)?
  /// The ringer saying a sentence; nil when none is.
  private var player: Ringer?
  private var playerGeneration = 0
  /// The players' events, tagged with their request's generation, into the loop.
  private var events: Mailbox<(Int, RingerEvent)>!

  /// Speech files go to `directory` (the service's runtime directory, beside its socket).
  init(loop: EventLoop, log: Logger, directory: String, environment: Environment) {
    self.loop = loop
    self.log = log
    self.directory = directory
    runner = HookRunner(
      loop: loop, environment: environment, maxRunning: 1, killGrace: .seconds(1),
      log: { level, text in log.log(level, text) })
    runner.onFinish = { [unowned self] result in self.synthesized(result) }
    events = loop.makeMailbox((Int, RingerEvent).self) { [weak self] message in
      self?.playerEvent(message.1, generation: message.0)
    }
  }

  var textPath: String { directory + "/speech.txt" }
  var wavPath: String { directory + "/speech.wav" }

  /// Says `text`: synthesis starts now, the sound when it is done. While a sentence is
  /// being made or said, another is not started (a second press is ignored).
  func say(_ text: String, locale: DisplayLocale, voice: VoiceConfig, devices: [String]) {
    guard !isBusy, runner.runningCount == 0 else {
      log.info("speech: already speaking; nothing more said")
      return
    }
    generation += 1
    do {
      try AtomicFile.write(Array(text.utf8), to: textPath, mode: 0o600)
    } catch {
      log.warning("speech: cannot write \(textPath): \(error); nothing said")
      return
    }
    let argv = SpeechSynthesizer.arguments(
      locale: locale, rate: voice.rate, textFile: textPath, wavFile: wavPath)
    var request = RingRequest(
      sound: wavPath, volume: voice.volume, ramp: .zero, loop: false, devices: devices)
    request.tryEveryCard = false
    guard runner.run(argv, timeout: .seconds(10), name: "speech") != nil else {
      log.warning("speech: espeak-ng could not be started (apt install espeak-ng); nothing said")
      return
    }
    pending = (generation, request)
    log.info("speech: \"\(text)\"")
  }

  /// Drops the sentence being made and stops the one being said (an alarm is about to
  /// ring). Returns at once.
  func silence() {
    if pending != nil { log.info("speech: dropped for a ring") }
    pending = nil
    if let player {
      player.stop()
      self.player = nil
      log.info("speech: stopped for a ring")
    }
  }

  /// For shutdown: silence, and espeak-ng killed if it still runs.
  func stop() {
    silence()
    runner.stopAll(grace: .milliseconds(200))
  }

  /// Whether a sentence is being made or said.
  var isBusy: Bool { pending != nil || player != nil }

  private func synthesized(_ result: HookResult) {
    unlink(textPath)
    guard let pending, result.name == "speech" else {
      unlink(wavPath)  // made for a sentence dropped meanwhile
      return
    }
    self.pending = nil
    guard result.status.isSuccess else {
      log.warning(
        "speech: espeak-ng \(result.timedOut ? "timed out" : "failed (\(result.status))"); nothing said"
      )
      return
    }
    guard let st = try? FileSystem.status(wavPath), st.st_size > 44 else {
      log.warning("speech: espeak-ng made no sound; nothing said")
      return
    }
    let generation = pending.generation
    let mailbox = events!
    do {
      let ringer = try Ringer(
        defaultSound: nil, log: { [log] level, text in log.log(level, "speech: " + text) },
        events: { mailbox.send((generation, $0)) })
      player = ringer
      playerGeneration = generation
      ringer.start(pending.request)
    } catch {
      log.warning("speech: cannot start a player: \(error); nothing said")
    }
  }

  private func playerEvent(_ event: RingerEvent, generation: Int) {
    guard generation == playerGeneration, let player else { return }
    switch event {
    case .fallbackTone(let why):
      // A tone in place of words would sound like an alarm: stop instead.
      log.warning("speech: cannot play the sentence: \(why); nothing said")
      player.stop()
      self.player = nil
    case .noDevice(let devices):
      log.warning("speech: no audio device could be opened (\(devices.joined(separator: ", ")))")
      player.stop()
      self.player = nil
    case .stopped:
      self.player = nil
      unlink(wavPath)
    default:
      break
    }
  }
}
