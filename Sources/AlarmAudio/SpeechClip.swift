import AlarmCore
import AlarmFiles

/// A sentence to say over a ring, decoded ahead into memory (mono samples at the file's
/// rate), so the playback thread mixes it in without opening or reading anything.
public struct SpeechClip: Sendable, Equatable {
  /// The longest clip kept: an announcement is a few seconds.
  public static let maxSeconds = 30

  public let samples: [Float]
  public let rate: Int

  public init(samples: [Float], rate: Int) {
    self.samples = samples
    self.rate = max(1, rate)
  }

  /// How long it plays.
  public var duration: Duration { .milliseconds(Int64(samples.count * 1000 / rate)) }

  /// Decodes `path` (espeak-ng's WAV) and mixes it down to one channel.
  public static func load(_ path: String) throws(SoundError) -> SpeechClip {
    let decoder = try SoundDecoder(path: path)
    let channels = decoder.channels
    let limit = maxSeconds * decoder.sampleRate
    var samples: [Float] = []
    samples.reserveCapacity(min(limit, Int(max(0, decoder.frameCount))))
    // A buffer of its own, not an array's: Swift 6.0's withUnsafeMutableBufferPointer does
    // not pass a typed throw through.
    let chunk = UnsafeMutablePointer<Float>.allocate(capacity: 4096 * channels)
    defer { chunk.deallocate() }
    while samples.count < limit {
      let got = try decoder.read(into: chunk, frames: 4096)
      if got == 0 { break }
      for f in 0..<got {
        var sum: Float = 0
        for c in 0..<channels { sum += chunk[f * channels + c] }
        samples.append(sum / Float(channels))
      }
    }
    return SpeechClip(samples: Array(samples.prefix(limit)), rate: decoder.sampleRate)
  }
}

/// A clip being said over the ring in the renderer: the ring ducks, the words play
/// (resampled to the device's rate by linear interpolation: speech needs no more), and the
/// ring comes back. Playback-thread only.
struct SpeechOverlay {
  /// How far the ring goes down under the words (-14 dB).
  static let duckGain: Float = 0.2
  static let duckFrames = 0.25  // seconds to duck, and the words wait for it
  static let returnFrames = 0.5  // seconds to come back

  let clip: SpeechClip
  let gain: Float
  /// Source samples per output frame.
  let step: Double
  let duckLength: Int
  let returnLength: Int
  /// Output frames since the overlay began.
  var frame = 0

  init(_ clip: SpeechClip, gain: Float, outputRate: Int) {
    self.clip = clip
    self.gain = gain
    step = Double(clip.rate) / Double(max(1, outputRate))
    duckLength = Int(Self.duckFrames * Double(outputRate))
    returnLength = Int(Self.returnFrames * Double(outputRate))
  }

  /// Output frames the words take.
  var wordFrames: Int { Int(Double(clip.samples.count) / step) }
  var isOver: Bool { frame >= duckLength + wordFrames + returnLength }

  /// The ring's gain at the current frame.
  func duck() -> Float {
    let words = wordFrames
    if frame < duckLength {
      return 1 - (1 - Self.duckGain) * Float(frame) / Float(max(1, duckLength))
    }
    if frame < duckLength + words { return Self.duckGain }
    let back = frame - duckLength - words
    return Self.duckGain + (1 - Self.duckGain) * min(1, Float(back) / Float(max(1, returnLength)))
  }

  /// The word sample at the current frame (0 outside the words).
  func word() -> Float {
    let at = Double(frame - duckLength) * step
    guard at >= 0 else { return 0 }
    let i = Int(at)
    guard i + 1 < clip.samples.count else { return i < clip.samples.count ? clip.samples[i] : 0 }
    let t = Float(at - Double(i))
    return (clip.samples[i] * (1 - t) + clip.samples[i + 1] * t) * gain
  }

  /// Ducks `frames` frames of `out` (`channels` each) and adds the words.
  mutating func apply(to out: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
    for f in 0..<frames {
      let d = duck()
      let w = word()
      for c in 0..<channels {
        let i = f * channels + c
        out[i] = max(-1, min(1, out[i] * d + w))
      }
      frame += 1
    }
  }
}
