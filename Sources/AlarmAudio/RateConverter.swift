import AlarmCore
import AlarmFiles
import AlarmPlatform

/// Plays a source at another frame rate, by linear interpolation. For an escalation sound
/// whose rate differs from the device's: the device is already open at the first sound's
/// rate, and reopening it would leave a gap in the ring.
final class RateConverter: AudioSource {
  let sampleRate: Int
  var channels: Int { inner.channels }
  private let inner: any AudioSource
  /// Input frames per output frame.
  private let step: Double
  private static let chunk = 1024
  private var buffer: [Float]
  private var bufferFrames = 0
  /// Where the next output frame lies, in input frames from the buffer's start.
  private var position = 0.0
  private var ended = false

  init(_ inner: any AudioSource, to rate: Int) {
    self.inner = inner
    sampleRate = max(1, rate)
    step = Double(inner.sampleRate) / Double(sampleRate)
    buffer = [Float](repeating: 0, count: (RateConverter.chunk + 1) * inner.channels)
  }

  func read(into out: UnsafeMutablePointer<Float>, frames: Int) throws(SoundError) -> Int {
    let ch = channels
    var produced = 0
    while produced < frames {
      let i = Int(position)
      if i + 1 >= bufferFrames {
        guard try refill(from: i) else { break }
        continue
      }
      let frac = Float(position - Double(i))
      for c in 0..<ch {
        let a = buffer[i * ch + c]
        out[produced * ch + c] = a + (buffer[(i + 1) * ch + c] - a) * frac
      }
      produced += 1
      position += step
    }
    return produced
  }

  func rewind() throws(SoundError) {
    try inner.rewind()
    (bufferFrames, position, ended) = (0, 0, false)
  }

  /// Keeps the frame at `i` (if buffered) and reads the next chunk after it.
  private func refill(from i: Int) throws(SoundError) -> Bool {
    guard !ended else { return false }
    let ch = channels
    let keep = max(0, min(1, bufferFrames - i))
    for k in 0..<(keep * ch) { buffer[k] = buffer[(bufferFrames - keep) * ch + k] }
    position -= Double(bufferFrames - keep)
    let n = try buffer.withMutableBuffer { b throws(SoundError) in
      // swift-format-ignore: the buffer is never empty
      try inner.read(into: b.baseAddress! + keep * ch, frames: RateConverter.chunk)
    }
    bufferFrames = keep + n
    if n == 0 { ended = true }
    return n > 0
  }
}
