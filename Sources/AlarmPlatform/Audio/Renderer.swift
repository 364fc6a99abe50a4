/// Turns a source into device frames: loops, falls back to the tone on a decode error,
/// maps channels, and applies volume and fade-in. Playback-thread only.
final class Renderer {
  private(set) var source: any AudioSource
  /// Channels per output frame (the device's).
  var outputChannels: Int
  /// Frames per second the device plays (the fade runs on this clock).
  let outputRate: Int
  private let volume: Float
  private let rampSeconds: Double
  private let loop: Bool
  private let onFallback: (SoundError) -> Void
  private var scratch: [Float] = []
  private(set) var framesOut = 0
  private(set) var usingFallback: Bool

  init(
    source: any AudioSource, outputChannels: Int, outputRate: Int, request: RingRequest,
    volume: Float, onFallback: @escaping (SoundError) -> Void
  ) {
    self.source = source
    self.outputChannels = max(1, outputChannels)
    self.outputRate = max(1, outputRate)
    self.volume = volume
    self.rampSeconds = request.ramp.secondsDouble
    self.loop = request.loop
    self.onFallback = onFallback
    self.usingFallback = source is FallbackTone
  }

  /// Fills up to `frames` output frames; returns 0 when a non-looping sound has ended.
  func render(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
    let inChannels = source.channels
    if scratch.count < frames * inChannels {
      scratch = [Float](repeating: 0, count: frames * inChannels)
    }
    var got = 0
    var emptyRewinds = 0
    while got == 0 {
      do throws(SoundError) {
        got = try scratch.withUnsafeMutableBufferPointer { buf throws(SoundError) in
          // swift-format-ignore: the buffer always has room for `frames`
          try source.read(into: buf.baseAddress!, frames: frames)
        }
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
    mix(scratch, inChannels: inChannels, frames: got, into: out)
    return got
  }

  /// Replaces the sound with the fallback tone (a decode error mid-ring).
  private func switchToFallback(_ error: SoundError) {
    onFallback(error)
    source = FallbackTone(sampleRate: outputRate, channels: outputChannels)
    usingFallback = true
  }

  private func mix(_ input: [Float], inChannels: Int, frames: Int, into out: UnsafeMutablePointer<Float>) {
    let outCh = outputChannels
    let rate = Double(outputRate)
    for f in 0..<frames {
      let g = volume * Gain.fade(elapsed: Double(framesOut + f) / rate, ramp: rampSeconds)
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
