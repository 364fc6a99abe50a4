import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The tone that rings when the chosen sound cannot be decoded: generated in code, so it
/// needs no file. One cycle is four 880 Hz bursts of 120 ms (80 ms apart) and 400 ms of
/// quiet, 1.2 s in all, the "beep-beep-beep-beep" of a bedside clock.
final class FallbackTone: AudioSource {
  /// The tone's pitch in hertz (tests listen for it).
  static let frequency = 880.0
  static let burst = 0.120
  static let gap = 0.080
  static let bursts = 4
  static let pause = 0.400
  static let cycleSeconds = Double(bursts) * (burst + gap) - gap + pause + gap
  /// Amplitude below full scale, so resampling in ALSA's plug layer cannot clip.
  static let amplitude: Float = 0.7

  let sampleRate: Int
  let channels: Int
  private let cycleFrames: Int
  private var position = 0

  init(sampleRate: Int = 48_000, channels: Int = 2) {
    self.sampleRate = max(8_000, sampleRate)
    self.channels = max(1, channels)
    cycleFrames = Int(FallbackTone.cycleSeconds * Double(self.sampleRate))
  }

  func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
    let n = min(frames, cycleFrames - position)
    let rate = Double(sampleRate)
    let burstFrames = Int(FallbackTone.burst * rate)
    let periodFrames = Int((FallbackTone.burst + FallbackTone.gap) * rate)
    let edge = Int(0.005 * rate)  // 5 ms raised-cosine edges: no clicks
    let step = 2 * Double.pi * FallbackTone.frequency / rate
    for i in 0..<n {
      let f = position + i
      var value: Float = 0
      if f / periodFrames < FallbackTone.bursts {
        let inBurst = f % periodFrames
        if inBurst < burstFrames {
          let fromEdge = min(inBurst, burstFrames - 1 - inBurst)
          let envelope =
            fromEdge >= edge ? 1 : 0.5 - 0.5 * cos(Double.pi * Double(fromEdge) / Double(edge))
          value = FallbackTone.amplitude * Float(envelope * sin(step * Double(inBurst)))
        }
      }
      for c in 0..<channels { buffer[i * channels + c] = value }
    }
    position += n
    return n
  }

  func rewind() { position = 0 }
}
