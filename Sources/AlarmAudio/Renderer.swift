import AlarmCore
import AlarmFiles
import AlarmPlatform

/// Turns a source into device frames: loops, falls back to the tone on a decode error,
/// maps channels, and applies volume, fade-in and escalation. Playback-thread only.
final class Renderer {
  private(set) var source: any AudioSource
  /// Channels per output frame (the device's).
  var outputChannels: Int
  /// Frames per second the device plays (the fade runs on this clock).
  let outputRate: Int
  /// Volume applied to the samples (false: a mixer control carries it).
  private let softwareVolume: Bool
  private let basePercent: Double
  private let rampSeconds: Double
  private let escalation: Escalation?
  /// The escalation sound, opened before the ring (nil: keep the sound, or the tone).
  private var escalationSource: (any AudioSource)?
  private let onEscalate: (String?) -> Void
  private(set) var escalated = false
  private let loop: Bool
  private let onFallback: (SoundError) -> Void
  private var scratch = PinnedBuffer<Float>(count: 0)
  private(set) var framesOut = 0
  private(set) var usingFallback: Bool
  /// A sentence said over the ring (`speak`), until it is over.
  private var overlay: SpeechOverlay?

  init(
    source: any AudioSource, outputChannels: Int, outputRate: Int, request: RingRequest,
    softwareVolume: Bool, escalationSource: (any AudioSource)? = nil,
    onFallback: @escaping (SoundError) -> Void, onEscalate: @escaping (String?) -> Void = { _ in }
  ) {
    self.source = source
    self.outputChannels = max(1, outputChannels)
    self.outputRate = max(1, outputRate)
    self.softwareVolume = softwareVolume
    self.basePercent = Double(request.volume)
    self.escalation = request.escalation
    self.escalationSource = escalationSource
    self.onEscalate = onEscalate
    self.rampSeconds = request.ramp.secondsDouble
    self.loop = request.loop
    self.onFallback = onFallback
    self.usingFallback = source is FallbackTone
  }

  /// Fills up to `frames` output frames; returns 0 when a non-looping sound has ended.
  func render(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
    if !escalated, let e = escalation,
      Double(framesOut) / Double(outputRate) >= e.after.secondsDouble
    {
      escalate(e)
    }
    let inChannels = source.channels
    if scratch.count < frames * inChannels {
      scratch = PinnedBuffer(count: frames * inChannels)
    }
    var got = 0
    var emptyRewinds = 0
    while got == 0 {
      do throws(SoundError) {
        got = try source.read(into: scratch.base, frames: frames)
        if got > 0 { break }
        guard loop else { return 0 }
        emptyRewinds += 1
        if emptyRewinds > 2 {
          throw SoundError(file: describe(source), reason: .truncated("no frames after rewinding"))
        }
        try source.rewind()
      } catch {
        switchToFallback(error)
        return render(into: out, frames: frames)
      }
    }
    mix(scratch.base, inChannels: inChannels, frames: got, into: out)
    if overlay != nil {
      overlay!.apply(to: out, frames: got, channels: outputChannels)
      if overlay!.isOver { overlay = nil }
    }
    return got
  }

  /// Says `clip` over the ring from the next frame, at `percent` (the `[voice]` volume);
  /// a sentence still being said is replaced.
  func speak(_ clip: SpeechClip, percent: Int) {
    overlay = SpeechOverlay(clip, gain: Gain.volume(percent), outputRate: outputRate)
  }

  /// The volume in percent `frame` frames into the ring: the request's, then rising
  /// linearly to the escalation's over its ramp.
  func percent(at frame: Int) -> Double {
    guard escalated, let e = escalation else { return basePercent }
    let start = e.after.secondsDouble * Double(outputRate)
    let ramp = max(1, e.ramp.secondsDouble * Double(outputRate))
    let t = min(1, max(0, (Double(frame) - start) / ramp))
    return basePercent + (Double(e.volume) - basePercent) * t
  }

  /// Starts the escalation at a period boundary: the volume starts rising and the
  /// escalation sound (already open) takes over from the sound.
  private func escalate(_ e: Escalation) {
    escalated = true
    var switchedTo: String? = nil
    if let next = escalationSource {
      source = next.sampleRate == outputRate ? next : RateConverter(next, to: outputRate)
      usingFallback = false
      switchedTo = (next as? SoundDecoder)?.path ?? (next as? StreamSource)?.url
    } else if e.sound != nil || e.unplayable != nil {
      source = FallbackTone(sampleRate: outputRate, channels: outputChannels)
      usingFallback = true
      switchedTo = "fallback tone"
    }
    escalationSource = nil
    onEscalate(switchedTo)
  }

  /// Replaces the sound with the fallback tone (a decode error mid-ring).
  private func switchToFallback(_ error: SoundError) {
    onFallback(error)
    source = FallbackTone(sampleRate: outputRate, channels: outputChannels)
    usingFallback = true
  }

  private func mix(
    _ input: UnsafePointer<Float>, inChannels: Int, frames: Int,
    into out: UnsafeMutablePointer<Float>
  ) {
    let outCh = outputChannels
    let rate = Double(outputRate)
    let rampDone = Double(framesOut) / rate >= rampSeconds
    let level = { (frame: Int) in self.softwareVolume ? Gain.volume(self.percent(at: frame)) : 1 }
    let volume = level(framesOut)
    let steady = rampDone && volume == level(framesOut + frames)
    // After the ramp at full volume with matching channels the samples pass as they are.
    if steady && volume == 1 && inChannels == outCh {
      out.update(from: input, count: frames * outCh)
      framesOut += frames
      return
    }
    // The fade gain changes slowly: one value per 32 frames (under 1 ms) is smooth.
    var g = volume
    for f in 0..<frames {
      if f & 31 == 0 && !steady {
        let at = framesOut + f
        g = level(at) * (rampDone ? 1 : Gain.fade(elapsed: Double(at) / rate, ramp: rampSeconds))
      }
      let base = f * inChannels
      if inChannels == outCh {
        for c in 0..<outCh { out[f * outCh + c] = input[base + c] * g }
      } else if inChannels == 1 {
        let v = input[base] * g
        for c in 0..<outCh { out[f * outCh + c] = v }
      } else if outCh == 1 {
        var sum: Float = 0
        for c in 0..<inChannels { sum += input[base + c] }
        out[f] = sum / Float(inChannels) * g
      } else {
        for c in 0..<outCh { out[f * outCh + c] = c < inChannels ? input[base + c] * g : 0 }
      }
    }
    framesOut += frames
  }

  private func describe(_ s: any AudioSource) -> String {
    (s as? SoundDecoder)?.path ?? "fallback tone"
  }
}
