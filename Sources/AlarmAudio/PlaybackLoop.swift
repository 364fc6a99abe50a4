import AlarmCore
import AlarmFiles
import AlarmPlatform
import CALSA
import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// The ringer's thread: waits for commands, runs one ring session at a time.
final class PlaybackLoop {
  /// Attempts per device in a round, and the pause after each failed attempt.
  static let attemptsPerDevice = 3
  static let attemptBackoff: [Duration] = [
    .milliseconds(100), .milliseconds(200), .milliseconds(400),
  ]
  /// The pause between rounds over every device, doubling up to the last value.
  static let roundBackoff: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(5)]

  struct Prepared {
    var request: RingRequest
    var source: any AudioSource
    var fallbackReason: SoundError?
    var device: PCMDevice?
    var deviceIndex: Int
    /// The escalation sound, opened ahead like the sound (nil: none, or it failed and
    /// the fallback tone replaces the sound).
    var escalationSource: (any AudioSource)?
  }

  let engine: RingerEngine
  private var prepared: Prepared?
  /// The device the last check or prepare opened: a ring tries it first, so a failover
  /// chosen ahead starts without going through the failing devices again.
  private var preferred: String?

  init(engine: RingerEngine) { self.engine = engine }

  func run() {
    if let priority = engine.priority {
      let outcome = ThreadPriority.raiseCallingThread(to: priority)
      let level: LogLevel = if case .raised = outcome { .info } else { .warning }
      engine.log(level, "audio: " + outcome.message(thread: "playback thread"))
    }
    while true {
      let command = engine.control.withLock { c -> RingerEngine.Command? in
        let cmd = c.command
        c.command = nil
        return cmd
      }
      if engine.control.withLock({ $0.shutdown }) { return }
      switch command {
      case .prepare(let request)?:
        if prepared?.request != request { prepared = open(request, session: nil) }
      case .check(let request)?:
        // A prepared ring has checked already, and holds its device (a second open of a
        // hw: device would fail as busy).
        if prepared == nil { _ = probe(request, keep: false) }
      case .start(let request, let deadline, let session)?:
        let ready = prepared?.request == request ? prepared : nil
        prepared = nil
        let reason = PlaybackSession(loop: self, request: request, session: session)
          .run(deadline: deadline, prepared: ready)
        engine.control.withLock { c in
          if c.writer == session {
            c.writer = 0
            c.ringing = false
          }
        }
        engine.log(.info, "audio: ring ended (\(reason))")
        engine.events(.stopped(reason))
      case nil:
        var fds = [pollfd(fd: engine.wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        _ = try? retryingEINTR("poll(wake)") { poll(&fds, 1, -1) }
        engine.wake.drain()
      }
    }
  }

  /// Opens the source and, when `session` is nil (prepare), one attempt at each device.
  /// A sound the request marks `unplayable` is never opened.
  func open(_ request: RingRequest, session: Int?) -> Prepared {
    var reason: SoundError? = nil
    var source: any AudioSource
    let path = request.sound ?? engine.defaultSound
    engine.reserve.replenish()
    do throws(SoundError) {
      if let stream = request.stream {
        source = streamSource(stream)
        return finish(
          Prepared(
            request: request, source: source, fallbackReason: nil, device: nil, deviceIndex: 0),
          session: session)
      }
      if let unplayable = request.unplayable { throw unplayable }
      guard let path else {
        throw SoundError(file: SoundResolver.defaultSoundName, reason: .notFound(searched: []))
      }
      source = try engine.reserve.retrying { () throws(SoundError) in
        try SoundDecoder(path: path)
      }
    } catch {
      reason = error
      source = FallbackTone()
    }
    return finish(
      Prepared(
        request: request, source: source, fallbackReason: reason, device: nil, deviceIndex: 0),
      session: session)
  }

  /// Adds the escalation sound and, for a prepare (`session` nil), the device.
  private func finish(_ prepared: Prepared, session: Int?) -> Prepared {
    var result = prepared
    result.escalationSource = openEscalationSound(result.request)
    if session == nil {
      (result.device, result.deviceIndex) = probe(
        result.request, keep: true, rate: result.source.sampleRate,
        channels: result.source.channels)
    }
    return result
  }

  /// A stream sound's source: its helper starts fetching now.
  private func streamSource(_ stream: StreamSound) -> StreamSource {
    let url = StreamURL.redacted(stream.url)
    return StreamSource(
      stream, helper: engine.streams, defaultSound: engine.defaultSound, reserve: engine.reserve,
      log: engine.log,
      report: { [engine] event in
        switch event {
        case .playing:
          engine.log(.info, "audio: playing the stream \(url)")
          engine.events(.streamPlaying(url: url))
        case .fallback(let reason):
          engine.events(.streamFallback(url: url, reason: reason))
        }
      })
  }

  /// One attempt at each device of the chain (`devices`, then the cards) until one opens:
  /// kept open for the ring when `keep`, else closed at once. Reports `.checked` and
  /// remembers the device that opened, for the next ring to try first.
  func probe(_ request: RingRequest, keep: Bool, rate: Int = 48_000, channels: Int = 2)
    -> (PCMDevice?, Int)
  {
    let names = chain(request)
    var failures: [AudioDeviceError] = []
    var opened: (PCMDevice, Int)? = nil
    for (i, name) in names.enumerated() {
      do {
        let device = try engine.reserve.retrying { () throws(AudioDeviceError) in
          try PCMDevice(name: name, rate: rate, channels: channels)
        }
        opened = (device, i)
        break
      } catch {
        engine.log(.warning, "audio: \(keep ? "prepare" : "check"): \(error)")
        failures.append(error)
      }
    }
    preferred = opened?.0.name
    engine.events(.checked(AudioCheck(failures: failures, device: preferred, tried: names)))
    guard let (device, index) = opened else { return (nil, 0) }
    if keep { return (device, index) }
    device.close()
    return (nil, 0)
  }

  /// The devices a ring tries, in order: the request's, then each card not named yet.
  func chain(_ request: RingRequest) -> [String] {
    request.tryEveryCard
      ? SoundCards.chain(request.devices, cards: SoundCards.list()) : request.devices
  }

  /// The escalation sound's decoder, or nil (logged) when it cannot be opened.
  private func openEscalationSound(_ request: RingRequest) -> (any AudioSource)? {
    guard let e = request.escalation, e.sound != nil || e.unplayable != nil || e.stream != nil
    else { return nil }
    if let stream = e.stream { return streamSource(stream) }
    do throws(SoundError) {
      if let unplayable = e.unplayable { throw unplayable }
      guard let path = e.sound else { return nil }
      return try engine.reserve.retrying { () throws(SoundError) in try SoundDecoder(path: path) }
    } catch {
      engine.log(.warning, "audio: escalation sound: \(error); it will be the fallback tone")
      return nil
    }
  }

  /// Sleeps up to `d`, waking early only when `session` may no longer write.
  /// Returns false in that case.
  func pause(_ d: Duration, session: Int) -> Bool {
    let end = Clock.monotonic.now() + d
    while mayWrite(session) {
      let left = end - Clock.monotonic.now()
      if left <= .zero { return true }
      var fds = [pollfd(fd: engine.wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
      let ready = try? retryingEINTR("poll(wake)") { poll(&fds, 1, left.pollTimeout) }
      if (ready ?? 0) > 0 { engine.wake.drain() }
    }
    return false
  }

  /// Whether `session` is still the one allowed to sound.
  func mayWrite(_ session: Int) -> Bool {
    engine.control.withLock { c in c.writer == session && !c.shutdown }
  }

  /// Opens a device for the ring, retrying and falling back until one opens or the
  /// session ends (nil). `giveUp` is a monotonic time (the end of `maxDuration`).
  func openDevice(
    _ request: RingRequest, rate: Int, channels: Int, session: Int, giveUp: Duration?
  ) -> (PCMDevice, Int)? {
    var round = 0
    while true {
      var names = chain(request)
      if round == 0, let p = preferred, let at = names.firstIndex(of: p), at > 0 {
        names.remove(at: at)
        names.insert(p, at: 0)
      }
      for name in names {
        for attempt in 0..<PlaybackLoop.attemptsPerDevice {
          guard mayWrite(session) else { return nil }
          if let giveUp, Clock.monotonic.now() >= giveUp { return nil }
          do {
            let device = try engine.reserve.retrying { () throws(AudioDeviceError) in
              try PCMDevice(name: name, rate: rate, channels: channels)
            }
            preferred = name
            return (device, name == request.devices.first ? 0 : 1)
          } catch {
            engine.log(.error, "audio: \(error) (attempt \(attempt + 1))")
            engine.events(.deviceFailed(error))
          }
          if attempt + 1 < PlaybackLoop.attemptsPerDevice {
            _ = pause(PlaybackLoop.attemptBackoff[attempt], session: session)
          }
        }
      }
      engine.log(.error, "audio: no device could be opened: \(names.joined(separator: ", "))")
      if round == 0 { engine.events(.noDevice(devices: names)) }
      preferred = nil
      let wait = PlaybackLoop.roundBackoff[min(round, PlaybackLoop.roundBackoff.count - 1)]
      round += 1
      guard pause(wait, session: session) else { return nil }
    }
  }
}
