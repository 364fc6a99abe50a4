import AlarmCore
import AlarmFiles
import AlarmPlatform
import CALSA
import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// One ring on the playback thread: source, device, mixer, deadline, write loop.
/// (AlarmCore's `RingSession` is the engine's record of a ring; this is its playback.)
struct PlaybackSession {
  let loop: PlaybackLoop
  let request: RingRequest
  let session: Int
  private var engine: RingerEngine { loop.engine }

  init(loop: PlaybackLoop, request: RingRequest, session: Int) {
    self.loop = loop
    self.request = request
    self.session = session
  }

  func run(deadline: RingDeadline?, prepared: PlaybackLoop.Prepared?) -> StopReason {
    let ready = prepared ?? loop.open(request, session: session)
    // The fallback is reported, not logged: the event's receiver logs it once.
    if let reason = ready.fallbackReason { engine.events(.fallbackTone(reason)) }
    let giveUp = request.maxDuration.map { monotonicDeadline(deadline) + $0 }
    var device: PCMDevice
    var index: Int
    if let d = ready.device {
      (device, index) = (d, ready.deviceIndex)
    } else {
      guard
        let opened = loop.openDevice(
          request, rate: ready.source.sampleRate, channels: ready.source.channels,
          session: session, giveUp: giveUp)
      else { return endReason(giveUp) }
      (device, index) = opened
    }
    engine.log(
      .info, "audio: playing on '\(device.name)' (\(device.rate) Hz, \(device.channels) ch)")
    engine.events(.deviceOpened(device: device.name, isFallback: index > 0))
    guard register(device) else { return endReason(giveUp) }

    let mixer = takeOverMixer(device: device)
    defer { mixer?.restore() }
    // With a mixer the hardware carries the level; the samples go at full scale.
    let renderer = Renderer(
      source: ready.source, outputChannels: device.channels, outputRate: device.rate,
      request: request, softwareVolume: mixer == nil, escalationSource: ready.escalationSource,
      onFallback: { [engine] error in engine.events(.fallbackTone(error)) },
      onEscalate: { [engine] sound in
        engine.log(.info, "audio: escalating" + (sound.map { " to \($0)" } ?? ""))
        engine.events(.escalated(sound: sound))
      })
    var mixerPercent = request.volume

    var chunk = pinned(count: device.bufferFrames * device.channels)
    var pending = renderer.render(into: chunk.base, frames: device.bufferFrames)
    var offset = 0
    if let deadline, !waitUntil(deadline) {
      unregister(device)
      return endReason(giveUp)
    }
    var first = true
    var ended = pending == 0
    let ringEnd = request.maxDuration.map { Clock.monotonic.now() + $0 }

    while true {
      if let ringEnd, Clock.monotonic.now() >= ringEnd {
        unregister(device)
        return .maxDuration
      }
      if pending == 0 && !ended {
        if let mixer, renderer.escalated {
          // An escalation with a mixer rises in the mixer, a step per whole percent.
          let p = Int(renderer.percent(at: renderer.framesOut).rounded())
          if p != mixerPercent {
            mixerPercent = p
            mixer.set(percent: p)
          }
        }
        offset = 0
        if let (clip, percent) = takeAnnouncement() {
          renderer.speak(clip, percent: percent)
          engine.events(.announced(realtime: Clock.realtime.now()))
        }
        let frames = min(device.periodFrames, device.bufferFrames)
        pending = renderer.render(into: chunk.base, frames: frames)
        ended = pending == 0
      }
      if ended {
        return drainAndEnd(device)
      }
      let result = engine.control.withLock { c -> Int? in
        guard c.writer == session, !c.shutdown else { return nil }
        return device.write(chunk.base + offset * device.channels, frames: pending)
      }
      guard let written = result else {
        unregister(device)
        return engine.control.withLock { c in
          if case .start = c.command { return StopReason.replaced }
          return .requested
        }
      }
      if written > 0 {
        if first {
          first = false
          engine.events(.firstFrame(device: device.name, realtime: Clock.realtime.now()))
        }
        offset += written
        pending -= written
        continue
      }
      if written == -Int(EAGAIN) {
        guard waitForRoom(device, until: ringEnd) else { continue }
        continue
      }
      if written == -Int(EPIPE) || written == -Int(ESTRPIPE) {
        let r = engine.control.withLock { _ in device.recover(written) }
        if r == 0 {
          engine.log(
            written == -Int(EPIPE) ? .debug : .notice,
            "audio: '\(device.name)': \(alsaText(written)), recovered")
          continue
        }
        if r == -EAGAIN {  // still suspended
          _ = loop.pause(.milliseconds(20), session: session)
          continue
        }
      }
      // Anything else: the device is gone (USB speaker unplugged) or broken. Reopen.
      let error = AudioDeviceError(
        device: device.name, call: "snd_pcm_writei", code: Int32(clamping: written),
        message: alsaText(written))
      engine.log(.error, "audio: \(error); reopening")
      engine.events(.deviceFailed(error))
      unregister(device)
      // Closed at once, not when a new device replaces it: removing a card (driver
      // unbind, rmmod) waits until every handle on it is closed, so holding the dead one
      // while retrying would hang the removal and keep the card from coming back.
      device.close()
      guard
        let (again, _) = loop.openDevice(
          request, rate: device.rate, channels: device.channels, session: session,
          giveUp: ringEnd)
      else { return endReason(ringEnd) }
      device = again
      guard register(device) else { return endReason(ringEnd) }
      engine.log(.notice, "audio: reopened '\(device.name)'")
      engine.events(.deviceReopened(device: device.name))
      renderer.outputChannels = device.channels
      chunk = pinned(count: device.bufferFrames * device.channels)
      pending = 0
    }
  }

  /// The sentence `Ringer.announce` left for this session, if any (taken once).
  private func takeAnnouncement() -> (SpeechClip, Int)? {
    engine.control.withLock { c in
      guard let a = c.announcement else { return nil }
      c.announcement = nil
      return c.writer == session ? (a.clip, a.percent) : nil
    }
  }

  /// Lets what is queued play out (the sound ran to its end), then drops.
  private func drainAndEnd(_ device: PCMDevice) -> StopReason {
    let queued = engine.control.withLock { _ in device.delay() }
    let ms = queued * 1000 / max(1, device.rate) + 30
    let stillOurs = loop.pause(.milliseconds(ms), session: session)
    unregister(device)
    return stillOurs ? .finished : .requested
  }

  /// Polls the PCM and the eventfd until there is room to write, a command, or the end.
  /// Returns false when woken for a command (the caller re-checks its session).
  private func waitForRoom(_ device: PCMDevice, until end: Duration?) -> Bool {
    var fds = device.pollDescriptors()
    let pcmCount = fds.count
    fds.append(pollfd(fd: engine.wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0))
    var timeout: Int32 = 1000
    if let end { timeout = min(timeout, (end - Clock.monotonic.now()).pollTimeout) }
    let n = (try? retryingEINTR("poll(pcm)") { poll(&fds, nfds_t(fds.count), timeout) }) ?? 0
    if n <= 0 { return true }
    if fds[pcmCount].revents != 0 {
      engine.wake.drain()
      return false
    }
    var pcmFDs = Array(fds.prefix(pcmCount))
    let revents = engine.control.withLock { _ in device.revents(&pcmFDs) }
    if revents & UInt16(POLLERR) != 0 {
      // An xrun or suspend shows here; the next write reports it and recovers.
      return true
    }
    return true
  }

  /// Sleeps until `deadline` on its clock (a timerfd, so realtime follows clock changes),
  /// waking for commands. False when the ring was stopped meanwhile. The timer was made
  /// at ringer init: waiting for a deadline needs no new descriptor.
  private func waitUntil(_ deadline: RingDeadline) -> Bool {
    guard let timer = engine.deadlineTimers[deadline.clock] else { return loop.mayWrite(session) }
    do {
      try timer.arm(at: deadline.time, cancelOnClockChange: false)
    } catch {
      engine.log(.warning, "audio: \(error); starting at once")
      return loop.mayWrite(session)
    }
    defer { try? timer.disarm() }
    while true {
      guard loop.mayWrite(session) else { return false }
      var fds = [
        pollfd(fd: timer.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
        pollfd(fd: engine.wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
      ]
      do {
        try retryingEINTR("poll(deadline)") { poll(&fds, 2, -1) }
      } catch {
        return loop.mayWrite(session)
      }
      if fds[1].revents != 0 { engine.wake.drain() }
      if fds[0].revents != 0 { return loop.mayWrite(session) }
    }
  }

  /// Makes `device` the one `stop()` drops; false if the session ended meanwhile.
  private func register(_ device: PCMDevice) -> Bool {
    engine.control.withLock { c in
      guard c.writer == session, !c.shutdown else { return false }
      c.pcm = PCMHandle(raw: device.handle)
      return true
    }
  }

  /// Drops the device (if still ours) and forgets it.
  private func unregister(_ device: PCMDevice) {
    engine.control.withLock { c in
      if c.pcm?.raw == device.handle {
        c.pcm = nil
      }
      snd_pcm_drop(device.handle)
    }
  }

  private func endReason(_ limit: Duration?) -> StopReason {
    if let limit, Clock.monotonic.now() >= limit { return .maxDuration }
    return engine.control.withLock { c in
      if case .start = c.command { return StopReason.replaced }
      return .requested
    }
  }

  private func takeOverMixer(device: PCMDevice) -> MixerControl? {
    guard let setting = request.mixer else { return nil }
    let ctl = setting.ctl ?? MixerControl.ctlName(forPCM: device.name)
    do {
      let mixer = try MixerControl(ctl: ctl, control: setting.control)
      mixer.takeOver(percent: request.volume)
      engine.log(.info, "audio: mixer '\(setting.control)' on '\(ctl)' set to \(request.volume) %")
      return mixer
    } catch {
      engine.log(.warning, "audio: mixer: \(error); using software volume")
      engine.events(.mixerFailed(error))
      return nil
    }
  }

  /// A deadline (or now) as a monotonic time, for `maxDuration`.
  private func monotonicDeadline(_ deadline: RingDeadline?) -> Duration {
    let now = Clock.monotonic.now()
    guard let deadline else { return now }
    switch deadline.clock {
    case .monotonic: return max(now, deadline.time)
    default: return now + max(.zero, deadline.time - deadline.clock.now())
    }
  }

  /// A sample buffer locked in RAM; the first refusal is logged (the ring goes on).
  private func pinned(count: Int) -> PinnedBuffer<Float> {
    let buffer = PinnedBuffer<Float>(count: count)
    if let error = buffer.pinError {
      let first = engine.control.withLock { c in
        defer { c.pinRefusalLogged = true }
        return !c.pinRefusalLogged
      }
      if first {
        engine.log(
          .warning,
          "audio: sample buffers not locked in RAM (\(error)); a page swapped out can "
            + "delay the ring: raise LimitMEMLOCK= (RLIMIT_MEMLOCK)")
      }
    }
    return buffer
  }
}
