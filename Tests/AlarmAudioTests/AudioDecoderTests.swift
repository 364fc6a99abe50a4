import AlarmFiles
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmAudio
@testable import AlarmPlatform

/// SoundDecoder over files made at test time by sox, lame, flac, oggenc and opusenc.
@Suite struct AudioDecoderTests {
  /// Decodes a whole file (small test files only) into interleaved floats.
  static func decodeAll(_ path: String) throws -> (SoundDecoder, [Float]) {
    let d = try SoundDecoder(path: path)
    var all: [Float] = []
    var block = [Float](repeating: 0, count: 1000 * d.channels)
    while true {
      let n = try block.withUnsafeMutableBufferPointer {
        try d.read(into: $0.baseAddress!, frames: 1000)
      }
      if n == 0 { break }
      all += block[0..<(n * d.channels)]
    }
    return (d, all)
  }

  /// A float32 reference: per channel c a sine at 300 + 100·c Hz, half scale, 0.5 s.
  static func reference(_ dir: TempDir, rate: Int, channels: Int) throws -> String {
    let path = dir.file("ref-\(rate)-\(channels).wav")
    var argv = [
      "sox", "-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-e", "floating-point",
      "-b", "32", path, "synth", "0.5",
    ]
    for c in 0..<channels { argv += ["sine", "\(300 + 100 * c)"] }
    try Tool.check(argv + ["vol", "0.5"])
    return path
  }

  struct Lossless: CustomTestStringConvertible, Sendable {
    var name: String
    var rate: Int
    var channels: Int
    var soxFormat: [String]  // sox output options
    var ext: String
    var lsb: Float  // allowed difference
    var testDescription: String { name }
  }

  static let lossless: [Lossless] = [
    .init(
      name: "wav u8 mono 8 kHz", rate: 8000, channels: 1,
      soxFormat: ["-e", "unsigned-integer", "-b", "8"], ext: "wav", lsb: 1.0 / 128),
    .init(
      name: "wav s16 stereo 44.1 kHz", rate: 44100, channels: 2,
      soxFormat: ["-e", "signed-integer", "-b", "16"], ext: "wav", lsb: 1.0 / 32768),
    .init(
      name: "wav s24 stereo 96 kHz", rate: 96000, channels: 2,
      soxFormat: ["-e", "signed-integer", "-b", "24"], ext: "wav", lsb: 1.0 / 8_388_608),
    .init(
      name: "wav s32 mono 22.05 kHz", rate: 22050, channels: 1,
      soxFormat: ["-e", "signed-integer", "-b", "32"], ext: "wav", lsb: 1e-6),
    .init(
      name: "wav float32 stereo 48 kHz", rate: 48000, channels: 2,
      soxFormat: ["-e", "floating-point", "-b", "32"], ext: "wav", lsb: 0),
    .init(
      name: "wav float64 mono 16 kHz", rate: 16000, channels: 1,
      soxFormat: ["-e", "floating-point", "-b", "64"], ext: "wav", lsb: 1e-7),
    .init(
      name: "wav extensible s24 5.1 48 kHz", rate: 48000, channels: 6,
      soxFormat: ["-e", "signed-integer", "-b", "24"], ext: "wav", lsb: 1.0 / 8_388_608),
    .init(
      name: "wav extensible s16 4 ch 32 kHz", rate: 32000, channels: 4,
      soxFormat: ["-e", "signed-integer", "-b", "16"], ext: "wav", lsb: 1.0 / 32768),
    .init(
      name: "flac s16 stereo 44.1 kHz", rate: 44100, channels: 2, soxFormat: ["-b", "16"],
      ext: "flac", lsb: 1.0 / 32768),
    .init(
      name: "flac s24 mono 96 kHz", rate: 96000, channels: 1, soxFormat: ["-b", "24"], ext: "flac",
      lsb: 1.0 / 8_388_608),
  ]

  @Test("lossless formats decode sample for sample", arguments: lossless)
  func losslessMatchesSource(_ c: Lossless) throws {
    let dir = try TempDir("decoder")
    defer { dir.remove() }
    let ref = try Self.reference(dir, rate: c.rate, channels: c.channels)
    let out = dir.file("out.\(c.ext)")
    if c.ext == "flac" {
      let wav = dir.file("mid.wav")
      try Tool.check(["sox", "-D", ref] + c.soxFormat + [wav])
      try Tool.check(["flac", "-s", "-f", "-o", out, wav])
    } else {
      try Tool.check(["sox", "-D", ref] + c.soxFormat + [out])
    }
    if c.channels > 2 {  // sox writes WAVE_FORMAT_EXTENSIBLE (0xFFFE) beyond stereo
      let bytes = try #require(FileManager.default.contents(atPath: out))
      #expect(bytes[20] == 0xFE && bytes[21] == 0xFF, "expected WAVE_FORMAT_EXTENSIBLE")
    }
    let (_, expected) = try Self.decodeAll(ref)
    let (d, got) = try Self.decodeAll(out)
    #expect(d.sampleRate == c.rate)
    #expect(d.channels == c.channels)
    #expect(got.count == expected.count)
    var worst: Float = 0
    for (a, b) in zip(got, expected) { worst = max(worst, abs(a - b)) }
    #expect(worst <= c.lsb * 1.01 + 1e-9, "max difference \(worst) exceeds \(c.lsb)")
  }

  struct Lossy: CustomTestStringConvertible, Sendable {
    var name: String
    var encode: [String]  // with IN and OUT placeholders
    var ext: String
    var rate: Int
    var testDescription: String { name }
  }

  static let lossy: [Lossy] = [
    .init(
      name: "mp3 CBR 128k 44.1 kHz", encode: ["lame", "--quiet", "-b", "128", "IN", "OUT"],
      ext: "mp3", rate: 44100),
    .init(
      name: "mp3 VBR -V2", encode: ["lame", "--quiet", "-V", "2", "IN", "OUT"], ext: "mp3",
      rate: 44100),
    .init(
      name: "mp3 ID3v2 with embedded picture",
      encode: ["lame", "--quiet", "--tt", "Wake 鬧鐘", "--ti", "PIC", "--id3v2-only", "IN", "OUT"],
      ext: "mp3", rate: 44100),
    .init(
      name: "mp3 MPEG-2 22.05 kHz",
      encode: ["lame", "--quiet", "-b", "64", "--resample", "22.05", "IN", "OUT"], ext: "mp3",
      rate: 22050),
    .init(
      name: "mp3 MPEG-2.5 8 kHz",
      encode: ["lame", "--quiet", "-b", "16", "--resample", "8", "IN", "OUT"], ext: "mp3",
      rate: 8000),
    .init(
      name: "ogg vorbis", encode: ["oggenc", "-Q", "-o", "OUT", "IN"], ext: "ogg", rate: 44100),
    .init(name: "opus", encode: ["opusenc", "--quiet", "IN", "OUT"], ext: "opus", rate: 48000),
  ]

  @Test("lossy formats decode to the right pitch and length", arguments: lossy)
  func lossyPitchAndLength(_ c: Lossy) throws {
    let dir = try TempDir("decoder")
    defer { dir.remove() }
    let src = dir.file("src.wav")
    try Tool.check([
      "sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", src, "synth", "2", "sine", "440",
      "vol", "0.5",
    ])
    let pic = dir.file("cover.png")
    try Self.picture().write(to: URL(fileURLWithPath: pic))
    let out = dir.file("out.\(c.ext)")
    try Tool.check(c.encode.map { $0 == "IN" ? src : $0 == "OUT" ? out : $0 == "PIC" ? pic : $0 })
    if c.encode.contains("--ti") {
      let bytes = try #require(FileManager.default.contents(atPath: out))
      #expect(
        bytes.starts(with: Array("ID3".utf8)) && bytes.count > 20_000, "ID3v2 tag with picture")
    }
    let (d, got) = try Self.decodeAll(out)
    #expect(d.sampleRate == c.rate)
    let frames = got.count / d.channels
    let seconds = Double(frames) / Double(d.sampleRate)
    // Encoder delay and padding (MP3 at 8 kHz pads most) stay under 0.2 s.
    #expect(abs(seconds - 2) < 0.2, "decoded \(seconds) s of a 2 s sound")
    let left = (0..<frames).map { got[$0 * d.channels] }
    let mid = left[(frames / 4)..<(frames * 3 / 4)]
    let f = Signal.zeroCrossingFrequency(mid, rate: Double(d.sampleRate))
    #expect(abs(f - 440) < 440 * 0.01, "pitch \(f) Hz")
  }

  /// A PNG (8x8 grey) padded to 20 KB so the ID3v2 tag is big, like real cover art.
  static func picture() -> Data {
    let png = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAAEElEQVR4nGNgYPj/n4EBAA/8Af8wHhg2AAAAAElFTkSuQmCC"
    )!
    return png + Data(repeating: 0, count: 20_000)
  }

  @Test func formatComesFromContentNotName() throws {
    let dir = try TempDir("decoder")
    defer { dir.remove() }
    let path = dir.file("really-a-wav.mp3")
    try Tool.check([
      "sox", "-R", "-n", "-r", "8000", "-c", "1", "-b", "16", "-t", "wav", path, "synth", "0.2",
      "sine", "440",
    ])
    let (d, got) = try Self.decodeAll(path)
    #expect(d.sampleRate == 8000 && got.count == 1600)
  }

  @Test func rewindStartsOverForLooping() throws {
    let dir = try TempDir("decoder")
    defer { dir.remove() }
    for ext in ["wav", "mp3"] {
      let wav = dir.file("a.wav")
      try Tool.check([
        "sox", "-R", "-n", "-r", "44100", "-c", "1", "-b", "16", wav, "synth", "0.5", "sine", "440",
      ])
      let path = dir.file("a.\(ext)")
      if ext == "mp3" { try Tool.check(["lame", "--quiet", wav, path]) }
      let d = try SoundDecoder(path: path)
      var first = [Float](repeating: 0, count: 512)
      var again = [Float](repeating: 0, count: 512)
      var sink = [Float](repeating: 0, count: 4096)
      _ = try first.withUnsafeMutableBufferPointer {
        try d.read(into: $0.baseAddress!, frames: 512)
      }
      while try sink.withUnsafeMutableBufferPointer({
        try d.read(into: $0.baseAddress!, frames: 4096)
      }) > 0 {}
      try d.rewind()
      _ = try again.withUnsafeMutableBufferPointer {
        try d.read(into: $0.baseAddress!, frames: 512)
      }
      // MP3 restarts the decoder after a seek: equal up to float rounding.
      let diff = zip(first, again).map { abs($0 - $1) }.max() ?? 1
      #expect(diff < 1e-4, "\(ext): rewind must give the same first frames (diff \(diff))")
    }
  }

  @Test func errorsNameTheFileAndTheReason() throws {
    let dir = try TempDir("decoder")
    defer { dir.remove() }
    func reason(_ path: String) -> SoundError.Reason? {
      do {
        _ = try SoundDecoder(path: path)
        return nil
      } catch {
        #expect(error.file == path)
        #expect(error.description.contains(path))
        return error.reason
      }
    }
    #expect(reason(dir.file("missing.mp3")) == .missing)
    _ = FileManager.default.createFile(atPath: dir.file("empty.wav"), contents: Data())
    #expect(reason(dir.file("empty.wav")) == .zeroLength)
    #expect(reason(dir.path) == .notAFile)
    try "this is not an mp3\n".write(
      toFile: dir.file("notes.mp3"), atomically: true, encoding: .utf8)
    guard case .notAudio? = reason(dir.file("notes.mp3")) else {
      Issue.record("a text file named .mp3 must be notAudio")
      return
    }
    // A WAV cut right after its header: no frames left.
    let wav = dir.file("full.wav")
    try Tool.check([
      "sox", "-R", "-n", "-r", "8000", "-c", "1", "-b", "16", wav, "synth", "1", "sine", "440",
    ])
    let bytes = try #require(FileManager.default.contents(atPath: wav))
    _ = FileManager.default.createFile(atPath: dir.file("cut.wav"), contents: bytes.prefix(44))
    guard case .truncated? = reason(dir.file("cut.wav")) else {
      Issue.record("a WAV with only its header must be truncated")
      return
    }
    // A WAV cut mid-data plays what is there (never silent), and says nothing is wrong.
    _ = FileManager.default.createFile(atPath: dir.file("half.wav"), contents: bytes.prefix(8044))
    let (d, got) = try Self.decodeAll(dir.file("half.wav"))
    #expect(d.sampleRate == 8000 && got.count == 4000)
    if geteuid() != 0 {  // root reads anything: the permission case needs a normal user
      let locked = dir.file("locked.wav")
      try bytes.write(to: URL(fileURLWithPath: locked))
      chmod(locked, 0)
      guard case .unreadable? = reason(locked) else {
        Issue.record("a file without read permission must be unreadable")
        return
      }
    }
  }
}
