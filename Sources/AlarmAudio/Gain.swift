import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The loudness laws, applied to samples in software.
///
/// Volume: a percentage `v` maps to the amplitude gain `(v / 100)³` (the cubic law
/// PulseAudio and alsamixer use for their sliders): 100 % is 0 dB, 80 % about -5.8 dB,
/// 50 % about -18 dB, 10 % -60 dB, 0 % silence.
///
/// Fade-in: over `ramp` the gain rises linearly in decibels from -60 dB to 0 dB relative
/// to the target volume (an exponential rise in amplitude, which the ear hears as even),
/// so the alarm starts barely audible and reaches its level at the end of the ramp.
public enum Gain {
  /// Where the fade-in starts, relative to the target volume.
  public static let rampFloorDB = -60.0

  /// Amplitude gain for a volume percentage (clamped to 0...100).
  public static func volume(_ percent: Int) -> Float {
    let v = Double(min(100, max(0, percent))) / 100
    return Float(v * v * v)
  }

  /// Amplitude gain for a fractional volume percentage (an escalation's rise).
  public static func volume(_ percent: Double) -> Float {
    let v = min(100, max(0, percent)) / 100
    return Float(v * v * v)
  }

  /// Fade-in gain `elapsed` seconds into a ramp of `ramp` seconds (1 at and after the end).
  public static func fade(elapsed: Double, ramp: Double) -> Float {
    guard ramp > 0, elapsed < ramp else { return 1 }
    let db = rampFloorDB * (1 - max(0, elapsed) / ramp)
    return Float(pow(10, db / 20))
  }
}
