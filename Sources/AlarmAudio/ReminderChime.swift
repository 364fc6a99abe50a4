#if canImport(Glibc)
  import Glibc
#endif

/// The short chime before a reminder is read: two soft bell notes, falling (E6, C6), made
/// here as a WAV file's bytes, so no sound file has to be installed for it and it never
/// sounds like an alarm (a second and a half, then it is over).
public enum ReminderChime {
  /// A 16-bit mono WAV at `rate` Hz.
  public static func wav(rate: Int = 22_050) -> [UInt8] {
    let notes: [(hz: Double, start: Double)] = [(1318.51, 0), (1046.50, 0.45)]
    let length = Int(1.5 * Double(rate))
    var samples = [Int16](repeating: 0, count: length)
    for i in 0..<length {
      let t = Double(i) / Double(rate)
      var v = 0.0
      for n in notes where t >= n.start {
        let u = t - n.start
        // A bell: a quick attack, an exponential decay, a quieter octave partial.
        let envelope = min(1, u / 0.005) * exp(-u * 4.5)
        v += envelope * (sin(2 * .pi * n.hz * u) + 0.25 * sin(4 * .pi * n.hz * u))
      }
      samples[i] = Int16(max(-1, min(1, v * 0.35)) * 32_767)
    }
    return header(frames: length, rate: rate)
      + samples.flatMap { s in
        [UInt8(truncatingIfNeeded: s), UInt8(truncatingIfNeeded: s >> 8)]
      }
  }

  /// A canonical 44-byte RIFF/WAVE header for 16-bit mono PCM.
  static func header(frames: Int, rate: Int) -> [UInt8] {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    let data = frames * 2
    return Array("RIFF".utf8) + le32(36 + data) + Array("WAVEfmt ".utf8) + le32(16) + le16(1)
      + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16) + Array("data".utf8)
      + le32(data)
  }
}
