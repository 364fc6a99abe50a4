import AudioTestSupport
import Foundation

/// The loopback HTTP server of Tests/Fixtures/stream/server.py, over media made once per
/// test process with ffmpeg: a 660 Hz tone as MP3 (5 s, and 1 s), 6 s of digital
/// silence, and the tone as an HLS playlist of AAC segments.
public final class StreamServer: @unchecked Sendable {
  /// The one server of the test process (started on first use; ends with the process,
  /// whose end closes the server's stdin).
  public static let shared: Result<StreamServer, Error> = Result { try StreamServer() }

  public let port: Int
  /// The same routes over https, with a certificate only `caFile` trusts.
  public let tlsPort: Int
  private let process: Process
  private let stdin: Pipe
  public let media: TempDir

  private init() throws {
    media = try TempDir("stream")
    try FileManager.default.createDirectory(
      atPath: media.file("hls"), withIntermediateDirectories: true)
    let tone = ["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100"]
    let mp3 = ["-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k"]
    try Self.ffmpeg(tone + ["-t", "5"] + mp3 + [media.file("tone.mp3")])
    try Self.ffmpeg(tone + ["-t", "1"] + mp3 + [media.file("short.mp3")])
    try Self.ffmpeg(
      ["-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", "6"] + mp3
        + [media.file("silence.mp3")])
    try Self.ffmpeg(
      [
        "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000", "-t", "6", "-c:a", "aac",
        "-b:a", "96k", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
        "-hls_segment_filename", media.file("hls/seg%d.ts"), media.file("hls/index.m3u8"),
      ])

    // A certificate for 127.0.0.1, its own CA (trusted only through
    // $ALARMCLOCK_STREAM_CA_FILE): the https routes.
    try Tool.check([
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
      "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout",
      media.file("tls-key.pem"), "-out", media.file("tls-cert.pem"),
    ])
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/stream/server.py").path
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, media.path]
    stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    // "PORT <n>" once it listens.
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let more = stdout.fileHandleForReading.availableData
      if more.isEmpty { throw ServerError(said: "nothing") }
      line.append(more)
    }
    let text = String(decoding: line, as: UTF8.self)
    let words = text.split(whereSeparator: \.isWhitespace)
    guard words.count == 4, let n = Int(words[1]), let t = Int(words[3]) else {
      throw ServerError(said: text)
    }
    port = n
    tlsPort = t
  }

  /// The address of `path` on this server.
  public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

  /// The https address of `path` on this server.
  public func tlsURL(_ path: String) -> String { "https://127.0.0.1:\(tlsPort)/\(path)" }

  /// The CA file that trusts the https routes' certificate.
  public var caFile: String { media.file("tls-cert.pem") }

  private static func ffmpeg(_ arguments: [String]) throws {
    try Tool.check(["ffmpeg", "-loglevel", "error", "-y"] + arguments)
  }
}

/// server.py did not say which port it listens on.
public struct ServerError: Error {
  public var said: String
}
