import AlarmAudio
import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The service's speech outside a ring: the time and the next alarm on a press, a reminder
/// at its due time (after a chime), today's reminders after the morning stop. The sentence
/// is made by a `SpeechMaker` (espeak-ng in a child), then played on a Ringer of its own,
/// made for the utterance and dropped after it, so nothing of it is resident while idle.
///
/// An alarm always wins: `silence()`, called before every ring and prepare, drops the
/// sentence being made and stops the one being said, so speech never delays a firing and
/// never holds the device the ring needs. Speech never falls back to a tone. Loop thread
/// only.
final class SpeechCoordinator {
  private let log: Logger
  private let maker: SpeechMaker
  private let chimePath: String
  /// Counts utterances: events of an older player (silenced meanwhile) are dropped.
  private var generation = 0
  /// The utterance in progress, from its request until its last sound ends.
  private var current: Utterance?
  /// The players' events, tagged with their utterance's generation, into the loop.
  private var events: Mailbox<(Int, RingerEvent)>!
  /// Called after every utterance (the service then releases the pages playing mapped).
  var onIdle: (() -> Void)?

  private struct Utterance {
    var generation: Int
    /// How to play (its `sound` set per part).
    var request: RingRequest
    /// The sentence's file once made.
    var speech: String?
    /// Still being made.
    var making = true
    /// The chime plays now (the sentence follows it).
    var chiming = false
    var player: Ringer?
    /// Called once when the utterance is over, said or not.
    var then: (() -> Void)?
  }

  /// Speech files go to `directory` (the service's runtime directory, beside its socket).
  init(loop: EventLoop, log: Logger, directory: String, environment: Environment) {
    self.log = log
    maker = SpeechMaker(
      loop: loop, log: log, directory: directory, name: "speech", environment: environment)
    chimePath = directory + "/chime.wav"
    events = loop.makeMailbox((Int, RingerEvent).self) { [weak self] message in
      self?.playerEvent(message.1, generation: message.0)
    }
  }

  /// Says `text`, after the reminder chime when `chime`: synthesis starts now and the
  /// chime plays meanwhile; the sentence when both are done. While an utterance is in
  /// progress another is not started (false; a second press is ignored). `then` is called
  /// when this one is over, said or not.
  @discardableResult
  func say(
    _ text: String, chime: Bool = false, locale: DisplayLocale, voice: VoiceConfig,
    devices: [String], then: (() -> Void)? = nil
  ) -> Bool {
    guard current == nil, !maker.isBusy else {
      log.info("speech: already speaking; nothing more said")
      return false
    }
    generation += 1
    let number = generation
    var request = RingRequest(
      sound: nil, volume: voice.volume, ramp: .zero, loop: false, devices: devices)
    request.tryEveryCard = false
    if let why = maker.make(
      text, locale: locale, rate: voice.rate, done: { [unowned self] in self.made($0, number) })
    {
      log.warning("speech: \(why); nothing said")
      return false
    }
    current = Utterance(generation: number, request: request, then: then)
    log.info("speech: \"\(text)\"")
    if chime {
      do {
        try AtomicFile.write(ReminderChime.wav(), to: chimePath, mode: 0o600)
        let chiming = play(chimePath)  // not inside the assignment: play() changes `current`
        current?.chiming = chiming
      } catch {
        log.warning("speech: cannot write the chime (\(error)); the sentence alone")
      }
    }
    return true
  }

  /// Drops the sentence being made and stops the one being said (an alarm is about to
  /// ring). Returns at once.
  func silence() {
    guard let u = current else { return }
    // Nothing follows an utterance an alarm cut off: what waits is said after the ring.
    current?.then = nil
    maker.cancel()
    if let player = u.player {
      player.stop()
      log.info("speech: stopped for a ring")
    } else {
      log.info("speech: dropped for a ring")
    }
    finish()
  }

  /// For shutdown: silence, and espeak-ng killed if it still runs.
  func stop() {
    silence()
    maker.stop()
  }

  /// Whether an utterance is being made or said.
  var isBusy: Bool { current != nil }

  private func made(_ outcome: SpeechMaker.Outcome, _ number: Int) {
    guard current?.generation == number else { return }
    current?.making = false
    switch outcome {
    case .failed(let why):
      log.warning("speech: \(why); nothing said")
      if current?.chiming != true { finish() }
    case .made(let path):
      current?.speech = path
      if current?.chiming != true, !play(path) { finish() }
    }
  }

  /// Plays `path` on the utterance's player (made on its first part); false when no
  /// player can be made.
  private func play(_ path: String) -> Bool {
    guard var u = current else { return false }
    if u.player == nil {
      let mailbox = events!
      let number = u.generation
      do {
        u.player = try Ringer(
          defaultSound: nil, log: { [log] level, text in log.log(level, "speech: " + text) },
          events: { mailbox.send((number, $0)) })
      } catch {
        log.warning("speech: cannot start a player: \(error); nothing said")
        return false
      }
    }
    u.request.sound = path
    u.player?.start(u.request)
    current = u
    return true
  }

  private func playerEvent(_ event: RingerEvent, generation: Int) {
    guard let u = current, u.generation == generation, let player = u.player else { return }
    switch event {
    case .fallbackTone(let why):
      // A tone in place of words would sound like an alarm: stop instead.
      log.warning("speech: cannot play \(u.chiming ? "the chime" : "the sentence"): \(why)")
      player.stop()
      finish()
    case .noDevice(let devices):
      log.warning("speech: no audio device could be opened (\(devices.joined(separator: ", ")))")
      player.stop()
      finish()
    case .stopped(let reason):
      guard u.chiming, reason == .finished else {
        finish()
        return
      }
      current?.chiming = false
      if let speech = u.speech {
        if !play(speech) { finish() }
      } else if !u.making {
        finish()  // the sentence failed: the chime alone was heard
      }
    default:
      break
    }
  }

  /// The utterance is over: its player dropped, its files removed, its `then` called.
  private func finish() {
    guard let u = current else { return }
    current = nil
    u.player?.stop()
    unlink(maker.wavPath)
    unlink(chimePath)
    onIdle?()
    u.then?()
  }
}
