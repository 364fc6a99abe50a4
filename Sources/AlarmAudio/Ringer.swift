import AlarmCore
import AlarmFiles
import AlarmPlatform
import CALSA
import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// Rings alarms: one playback thread that decodes, fades in and writes to ALSA.
///
/// Calls return at once and may come from any thread; the work happens on the ringer's
/// own thread, which sleeps in `poll` on the PCM's descriptors and an eventfd. `stop()`
/// drops the PCM (`snd_pcm_drop`, not drain) from the calling thread, so the sound ends
/// within milliseconds whatever the decoder is doing.
///
/// Never silent: an undecodable sound rings the fallback tone (`.fallbackTone`); a device
/// that cannot be opened is retried with backoff, then the next device in the request's
/// list, then every sound card present (`SoundCards`), round after round (`.deviceFailed`,
/// `.noDevice`: the service's cue for the buzzer) until one opens or the ring is stopped;
/// a device lost mid-ring is reopened and the ring goes on. `check` tries the same chain
/// ahead of the ring.
///
/// Out of descriptors is not silence either: the wake-up eventfd, the deadline timers and
/// a reserve of spare descriptors are created in `init` (which throws if they cannot be),
/// and opening the sound or the PCM is retried with the reserve given back (see
/// `DescriptorReserve`); the fallback tone needs no descriptor beyond the PCM.
public final class Ringer: Sendable {
  private let engine: RingerEngine
  private let thread: pthread_t

  /// - Parameters:
  ///   - defaultSound: the file rung when a request has no sound (nil: the fallback tone).
  ///   - log: receives every failure and state change, from the playback thread, except
  ///     the fallback tone: that is reported once, as `.fallbackTone`, for the receiver
  ///     of `events` to log (so it is not logged twice).
  ///   - events: receives `RingerEvent`s, from the playback thread; keep it short.
  ///   - priority: the real-time priority the playback thread asks for (nil: it stays
  ///     at normal priority); a refusal is logged once and the ringer works as without.
  ///   - streams: how stream sounds are fetched (nil: they ring their fallback, saying
  ///     why).
  /// - Throws: when the eventfd, the timers, the descriptor reserve or the playback thread
  ///   cannot be created (out of descriptors or memory): a ringer that could not ring.
  public init(
    defaultSound: String?, log: @escaping AudioLog = { _, _ in },
    events: @escaping @Sendable (RingerEvent) -> Void = { _ in }, priority: Int32? = nil,
    streams: StreamHelper? = nil
  ) throws(SystemError) {
    engine = try RingerEngine(
      defaultSound: defaultSound, log: log, events: events, reserve: DescriptorReserve(),
      priority: priority, streams: streams)
    calsa_silence_errors()
    // ALSA reads its configuration files on the first open and caches a failed read for
    // good; reading them now means a ring out of descriptors does not need them.
    let configRead = snd_config_update()
    if configRead < 0 { log(.warning, "audio: ALSA configuration: \(alsaText(configRead))") }
    // Without a thread nothing can ring (pthread_create fails only out of resources).
    thread = try NativeThread.start("ringer") { [engine] in PlaybackLoop(engine: engine).run() }
  }

  deinit {
    engine.control.withLock { c in
      c.shutdown = true
      c.writer = 0
      if let pcm = c.pcm { snd_pcm_drop(pcm.raw) }
    }
    engine.wake.signal()
    pthread_join(thread, nil)
  }

  /// Opens the sound and the device for `request` ahead of time, so that a `start` with
  /// an equal request hands its first frame to ALSA within a few milliseconds of its
  /// deadline. Call it a second or two before the alarm; a later `prepare` or `start`
  /// with another request discards it.
  public func prepare(_ request: RingRequest) {
    engine.control.withLock { c in
      if case .start = c.command { return }
      c.command = .prepare(request)
    }
    engine.wake.signal()
  }

  /// Checks the audio path ahead of a ring: opens and closes each device of `request`'s
  /// chain (its devices, then every sound card) until one opens, and reports what it found
  /// as `.checked`. The device that opened is the one the next ring tries first. Ignored
  /// while another command is pending, a ring is going, or a ring is prepared (a prepare
  /// checks too, and holds its device open).
  public func check(_ request: RingRequest) {
    let sent = engine.control.withLock { c -> Bool in
      guard c.command == nil, !c.ringing else { return false }
      c.command = .check(request)
      return true
    }
    if sent { engine.wake.signal() }
  }

  /// Starts ringing `request` at `deadline` (nil: now). A ring already going is replaced
  /// (its sound ends at once, `.stopped(.replaced)`).
  public func start(_ request: RingRequest, at deadline: RingDeadline? = nil) {
    engine.control.withLock { c in
      let session = c.nextSession
      c.nextSession += 1
      c.command = .start(request, deadline, session)
      c.announcement = nil
      c.writer = session
      c.ringing = true
      if let pcm = c.pcm { snd_pcm_drop(pcm.raw) }
    }
    engine.wake.signal()
  }

  /// Stops the ring: returns once the PCM is dropped (nothing more can sound). The
  /// playback thread then restores the mixer and reports `.stopped(.requested)`.
  public func stop() {
    engine.control.withLock { c in
      if case .start = c.command { c.command = nil }
      c.writer = 0
      c.ringing = false
      c.announcement = nil
      if let pcm = c.pcm { snd_pcm_drop(pcm.raw) }
    }
    engine.wake.signal()
  }

  /// Says `clip` over the ring going on (it ducks meanwhile), at `percent` (0-100) in
  /// the perceptual law of `Gain`; reported as `.announced` when its first frame is
  /// mixed. Ignored when nothing rings.
  public func announce(_ clip: SpeechClip, percent: Int) {
    engine.control.withLock { c in
      guard c.ringing else { return }
      c.announcement = (clip, percent)
    }
  }

  /// True from `start` until the ring ends (stop, replaced, finished, `maxDuration`).
  public var isRinging: Bool { engine.control.withLock { $0.ringing } }
}

/// State shared between the callers and the playback thread.
final class RingerEngine: Sendable {
  enum Command {
    case prepare(RingRequest)
    case check(RingRequest)
    case start(RingRequest, RingDeadline?, Int)
  }

  struct Control {
    /// The latest command the thread has not taken yet.
    var command: Command?
    /// The only session allowed to write (0: none). PCM calls happen under this lock,
    /// so after `stop()` changes it no sample can reach ALSA.
    var writer = 0
    /// The PCM the writing session has open, for `stop()` to drop.
    var pcm: PCMHandle?
    var ringing = false
    var nextSession = 1
    var shutdown = false
    /// A sentence for the ring to say, taken by the playback thread at its next period.
    var announcement: (clip: SpeechClip, percent: Int)?
    /// Whether a refused `mlock` of the sample buffers has been logged (once is enough).
    var pinRefusalLogged = false
  }

  let control = Locked(Control())
  /// Wakes the playback thread for a command.
  let wake: EventFd
  /// One timer per clock, for ring deadlines (created here: a ring opens no timer).
  let deadlineTimers: [Clock: TimerFd]
  /// Spare descriptors for opening the sound and the PCM when none are left.
  let reserve: DescriptorReserve
  let defaultSound: String?
  let log: AudioLog
  let events: @Sendable (RingerEvent) -> Void
  let priority: Int32?
  let streams: StreamHelper?

  init(
    defaultSound: String?, log: @escaping AudioLog,
    events: @escaping @Sendable (RingerEvent) -> Void, reserve: DescriptorReserve,
    priority: Int32?, streams: StreamHelper?
  ) throws(SystemError) {
    self.priority = priority
    self.streams = streams
    wake = try EventFd()
    var timers: [Clock: TimerFd] = [:]
    for clock in [Clock.realtime, .monotonic, .boottime] {
      timers[clock] = try TimerFd(clock: clock)
    }
    deadlineTimers = timers
    self.reserve = reserve
    self.defaultSound = defaultSound
    self.log = log
    self.events = events
  }
}

/// A PCM pointer shared with `stop()`. Unchecked: every ALSA call on it happens under
/// the engine's control lock, so no two threads use the PCM at once.
struct PCMHandle: @unchecked Sendable, Equatable {
  let raw: OpaquePointer
}
