import Foundation

/// Small signal measurements for asserting on recorded and decoded audio.
public enum Signal {
  /// The Goertzel power of `frequency` in `samples`, normalized to the window length
  /// (a full-scale sine at that frequency gives about 0.25).
  public static func goertzel(_ samples: ArraySlice<Float>, frequency: Double, rate: Double)
    -> Double
  {
    let k = 2 * cos(2 * Double.pi * frequency / rate)
    var s1 = 0.0
    var s2 = 0.0
    for x in samples {
      let s = Double(x) + k * s1 - s2
      s2 = s1
      s1 = s
    }
    let power = s1 * s1 + s2 * s2 - k * s1 * s2
    let n = Double(max(1, samples.count))
    return power / (n * n)
  }

  /// The frequency estimated from zero crossings (rising edges per second).
  public static func zeroCrossingFrequency(_ samples: ArraySlice<Float>, rate: Double) -> Double {
    var crossings = 0
    var first: Int? = nil
    var last = 0
    var prev = samples.first ?? 0
    for (i, x) in zip(samples.indices, samples) {
      if prev < 0 && x >= 0 {
        if first == nil { first = i } else { crossings += 1 }
        last = i
      }
      prev = x
    }
    guard let first, last > first, crossings > 0 else { return 0 }
    return Double(crossings) * rate / Double(last - first)
  }

  /// `samples[from..<to]`, or nil when the recording does not reach that far (judge a window
  /// only once it is all there: `SinkRecorder.finish(through:)` waits for it).
  public static func window(_ samples: [Float], _ from: Int, _ to: Int) -> ArraySlice<Float>? {
    from >= 0 && from < to && to <= samples.count ? samples[from..<to] : nil
  }

  /// The root-mean-square level.
  public static func rms(_ samples: ArraySlice<Float>) -> Double {
    guard !samples.isEmpty else { return 0 }
    var sum = 0.0
    for x in samples { sum += Double(x) * Double(x) }
    return (sum / Double(samples.count)).squareRoot()
  }

  /// The first index where the level over a short window exceeds `threshold`.
  public static func onset(_ samples: [Float], threshold: Float, from start: Int = 0) -> Int? {
    var i = max(0, start)
    while i < samples.count {
      if abs(samples[i]) > threshold { return i }
      i += 1
    }
    return nil
  }

  /// The last index where `|x|` exceeds `threshold`.
  public static func lastAbove(_ samples: [Float], threshold: Float) -> Int? {
    samples.lastIndex { abs($0) > threshold }
  }
}
