import AlarmAudio
import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// `announce = true`: while the alarm rings, the time and the label are said over the
/// ducked sound, when the fade-in ends and then every `announce_every`.
///
/// Each sentence is made ahead by a `SpeechMaker` of its own (the first at the prepare
/// point, each next one as soon as the one before is said) and decoded into memory, so at
/// its moment the playback thread only mixes samples in. Speech never holds up the ring:
/// a sentence not ready at its moment is said when it is, one that cannot be made is
/// logged and the ring goes on. Loop thread only.
final class Announcer {
  /// What one announcing ring says, and when.
  struct Ring {
    var alarmID: String
    /// The sentence for a moment (the time then, and the label).
    var text: (Instant) -> String
    var locale: DisplayLocale
    var voice: VoiceConfig
    /// The fade-in: the first sentence comes when it ends.
    var ramp: Duration
    var every: Duration
  }

  private let log: Logger
  private let maker: SpeechMaker
  private let timer: TimerFd
  private let now: () -> Instant
  private let say: (SpeechClip, Int) -> Void
  private var ring: Ring?
  /// The next sentence, ready, and its words.
  private var ready: (clip: SpeechClip, text: String)?
  /// Its moment has come and it was not ready: say it as soon as it is.
  private var overdue = false

  init(
    loop: EventLoop, log: Logger, directory: String, environment: Environment,
    now: @escaping () -> Instant, say: @escaping (SpeechClip, Int) -> Void
  ) throws(SystemError) {
    self.log = log
    self.now = now
    self.say = say
    maker = SpeechMaker(
      loop: loop, log: log, directory: directory, name: "announcement", environment: environment)
    timer = try TimerFd(clock: .monotonic)
    try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
      _ = try? self.timer.read()
      self.momentCame()
    }
  }

  /// The prepare point of an announcing alarm: its first sentence is made now, for `at`.
  func prepare(_ r: Ring, firstAt at: Instant) {
    stop()
    ring = r
    make(for: at)
  }

  /// A ring period of an announcing alarm started sounding: the first sentence when the
  /// fade-in ends (made now unless the prepare point made it).
  func started(_ r: Ring) {
    let madeAhead = ring?.alarmID == r.alarmID && (ready != nil || maker.isBusy)
    if !madeAhead { stop() }
    ring = r
    arm(after: r.ramp)
    if !madeAhead { make(for: now() + r.ramp) }
  }

  /// The ring period ended (snooze, stop, its time up): nothing more is said.
  func stop() {
    ring = nil
    ready = nil
    overdue = false
    maker.cancel()
    _ = try? timer.disarm()
  }

  /// For shutdown: espeak-ng killed if it still runs.
  func shutDown() {
    stop()
    maker.stop()
  }

  private func arm(after delay: Duration) {
    do throws(SystemError) {
      // A zero delay would disarm a timerfd: a millisecond is "now".
      try timer.arm(after: max(delay, .milliseconds(1)))
    } catch {
      log.warning("announcement: cannot arm its timer: \(error); nothing more is said")
    }
  }

  private func momentCame() {
    guard let r = ring else { return }
    arm(after: r.every)
    if let ready {
      send(ready)
    } else {
      overdue = true
      log.info("announcement: the sentence is not ready yet; it is said when it is")
    }
  }

  private func send(_ s: (clip: SpeechClip, text: String)) {
    guard let r = ring else { return }
    ready = nil
    overdue = false
    say(s.clip, r.voice.volume)
    log.info("announcement: \"\(s.text)\"")
    make(for: now() + r.every)
  }

  private func make(for moment: Instant) {
    guard let r = ring else { return }
    let text = r.text(moment)
    let failure = maker.make(text, locale: r.locale, rate: r.voice.rate) { [unowned self] outcome in
      self.made(outcome, text: text)
    }
    if let failure { log.warning("announcement: \(failure); the ring goes on without it") }
  }

  private func made(_ outcome: SpeechMaker.Outcome, text: String) {
    guard ring != nil else { return }
    switch outcome {
    case .failed(let why):
      log.warning("announcement: \(why); the ring goes on without it")
    case .made(let path):
      defer { unlink(path) }
      do throws(SoundError) {
        let s = (try SpeechClip.load(path), text)
        if overdue { send(s) } else { ready = s }
      } catch {
        log.warning("announcement: cannot read the sentence: \(error); the ring goes on")
      }
    }
  }
}
