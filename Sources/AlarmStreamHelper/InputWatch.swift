import AlarmCore
import AlarmPlatform
import CFFmpeg

/// The settings every open uses.
enum InputOptions {
  /// The only protocols FFmpeg may use: the URL and every playlist entry or HLS segment
  /// are untrusted, and must never reach `file:` (or any other local protocol).
  static let protocols = "http,https,tcp,tls,crypto"
  /// No byte for this long on an open connection is an error (`rw_timeout`).
  /// One second: the device's half-second buffer comes on top, and the fallback must be
  /// heard within 2 s of a stall.
  static let stallLimit: Duration = .milliseconds(1000)
  /// `stallLimit` for people.
  static let stallText = "1 s"
  /// Connecting, the headers, the probe and the decoder together get this long.
  static let openLimit: Duration = .seconds(15)
  /// libavformat's http protocol follows this many redirects, then fails with EIO.
  static let maxRedirects = 8
  /// At most this much is read to recognise the format (`formatprobesize`).
  static let formatProbeBytes = 16 * 1024
  /// At most this much audio is analysed before decoding starts (`analyzeduration`).
  static let analyzeLimit: Duration = .milliseconds(500)
  /// At most this much is read to recognise the format.
  static let probeBytes = 2 << 20
  /// Nothing decoded for this long, while bytes keep arriving (or decode errors keep
  /// coming), is not audio.
  static let noAudioLimit: Duration = .seconds(1)
  /// Bytes that must arrive without a decoded frame, beyond `noAudioLimit`, before the
  /// interrupt callback calls them garbage (a stall is `stallLimit`'s business).
  static let noAudioBytes: Int64 = 8 * 1024

  /// Names a file of CA certificates trusted for https instead of the system's.
  static let caFileVariable = "ALARMCLOCK_STREAM_CA_FILE"

  /// The `User-Agent` of every request.
  static var userAgent: String { "alarmclock/\(AlarmclockVersion.string)" }

  /// The options of an open (avio_open2, avformat_open_input); free with av_dict_free.
  static func dictionary() -> OpaquePointer? {
    var options: OpaquePointer?
    let settings: [(String, String)] = [
      ("protocol_whitelist", protocols),
      ("rw_timeout", String(Int(stallLimit.secondsDouble * 1_000_000))),
      ("user_agent", userAgent),
      ("icy", "1"),
      // FFmpeg trusts any certificate unless asked: https is checked against the system's
      // CAs (or $ALARMCLOCK_STREAM_CA_FILE's, for a station with a private CA).
      ("tls_verify", "1"),
      ("reconnect", "0"),
      ("probesize", String(probeBytes)),
      // A live station arrives in real time after the server's burst: FFmpeg's default
      // (5 s of audio analysed before the first frame) would spend most of the lead.
      ("analyzeduration", String(Int(analyzeLimit.secondsDouble * 1_000_000))),
      // And recognising the format from at most 16 KiB (1 s of a 128 kbit/s station),
      // not FFmpeg's 1 MiB: MP3 after a few hundred bytes of junk scores low until FFmpeg
      // has read 128 KiB, eight seconds of a live station past the server's burst. A
      // format still unsure at 16 KiB takes its best guess.
      ("formatprobesize", String(formatProbeBytes)),
    ]
    for (key, value) in settings { av_dict_set(&options, key, value, 0) }
    if let ca = getenv(caFileVariable), ca.pointee != 0 { av_dict_set(&options, "ca_file", ca, 0) }
    return options
  }
}

/// Decides, from inside FFmpeg's blocking I/O (its interrupt callback), when to give up:
/// the open deadline, and bytes that keep arriving without decoding to audio.
///
/// Used on the decoder thread only: FFmpeg calls the callback from the thread whose call
/// is blocked.
final class InputWatch: @unchecked Sendable {
  /// Why the callback stopped FFmpeg (its call then fails with AVERROR_EXIT).
  private(set) var reason: StreamFailure?
  private var openDeadline: Duration?
  private var io: UnsafeMutablePointer<AVIOContext>?
  private var lastAudio: Duration = .zero
  private var positionAtAudio: Int64 = 0

  /// The callback to give every FFmpeg context (it holds this watch unretained: the watch
  /// lives as long as the process).
  var callback: AVIOInterruptCB {
    AVIOInterruptCB(
      callback: { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<InputWatch>.fromOpaque(opaque).takeUnretainedValue().check() ? 1 : 0
      }, opaque: Unmanaged.passUnretained(self).toOpaque())
  }

  /// An open starts: it must finish within `InputOptions.openLimit`.
  func opening() {
    openDeadline = Clock.monotonic.now() + InputOptions.openLimit
    io = nil
    reason = nil
  }

  /// The decoder is open: from now on `io`'s bytes must decode to audio.
  func playing(io: UnsafeMutablePointer<AVIOContext>?) {
    openDeadline = nil
    self.io = io
    audioDecoded()
  }

  /// Audio came out of the decoder (or the decoder was waiting for room, not for bytes).
  func audioDecoded() {
    lastAudio = Clock.monotonic.now()
    positionAtAudio = io?.pointee.pos ?? 0
  }

  /// A packet failed to decode: skipped while audio came within `noAudioLimit`, else
  /// the end of the stream.
  func decodeFailed(_ code: Int32) throws(StreamFailure) {
    if Clock.monotonic.now() - lastAudio > InputOptions.noAudioLimit {
      throw StreamFailure("not audio: " + StreamFailure.message(code))
    }
  }

  /// The failure for an FFmpeg error, the callback's own reason first.
  func failure(_ code: Int32, _ phase: StreamFailure.Phase) -> StreamFailure {
    if code == cff_averror_exit(), let reason { return reason }
    return StreamFailure.ffmpeg(code, phase)
  }

  private func check() -> Bool {
    if reason != nil { return true }
    let now = Clock.monotonic.now()
    if let openDeadline, now > openDeadline {
      reason = StreamFailure(
        "timed out: the stream did not open within \(InputOptions.openLimit.components.seconds) s"
      )
    } else if let io, now - lastAudio > InputOptions.noAudioLimit,
      io.pointee.pos - positionAtAudio > InputOptions.noAudioBytes
    {
      let kib = (io.pointee.pos - positionAtAudio) / 1024
      reason = StreamFailure("not audio: \(kib) KiB arrived and none of it decoded")
    }
    return reason != nil
  }
}
