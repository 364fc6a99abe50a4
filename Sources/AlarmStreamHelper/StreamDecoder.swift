import AlarmCore
import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// The decoder thread's work: open the stream, decode and resample it into the channel,
/// loop a finite stream, and end the channel with the reason whenever it stops.
final class StreamDecoder: @unchecked Sendable {
  let request: StreamWire.Request
  let channel: PCMChannel
  private let watch = InputWatch()
  private let resampler: Resampler
  private var title: String?

  /// The ICY metadata is looked at every this many packets.
  private static let titleCheckPackets = 16

  /// A decoder for `request`, feeding `channel`.
  init(request: StreamWire.Request, channel: PCMChannel) {
    self.request = request
    self.channel = channel
    resampler = Resampler(rate: request.rate, channels: request.channels)
  }

  /// Runs until the stream ends; the channel then says how.
  func run() {
    do throws(StreamFailure) {
      try play()
    } catch {
      channel.end(.now(error.reason))
    }
  }

  private func play() throws(StreamFailure) {
    let channel = channel
    let opener = InputOpener(watch: watch) { channel.post(StreamWire.Message(.notice, text: $0)) }
    var input = try opener.open(request.url)
    channel.post(StreamWire.Message(.ready, text: input.info.text))
    if let station = input.stationName {
      channel.post(StreamWire.Message(.notice, text: "station: \(station)"))
    }
    while true {
      let frames = try decode(input)
      if frames == 0 { throw StreamFailure("not audio: nothing in the stream could be decoded") }
      guard input.finite else { throw StreamFailure(StreamFailure.serverEnded) }
      guard request.loop else {
        channel.end(.afterQueue("the stream ended"))
        return
      }
      if !input.rewind() {
        // Not seekable (a server without ranges): the same address again, from the start.
        let url = input.url
        input = try opener.open(url)
      }
    }
  }

  /// Decodes `input` to its end; returns the frames it gave.
  private func decode(_ input: MediaInput) throws(StreamFailure) -> Int {
    var packet = av_packet_alloc()
    var frame = av_frame_alloc()
    defer {
      av_packet_free(&packet)
      av_frame_free(&frame)
    }
    guard let packet, let frame else { throw StreamFailure("out of memory") }
    watch.playing(io: input.connection)
    var decoded = 0
    var packets = 0
    while true {
      let rc = av_read_frame(input.format, packet)
      if rc < 0 {
        // Demuxers report a connection's failure as the end: the context keeps the error.
        let ioError = input.connection?.pointee.error ?? 0
        if rc == cff_averror_eof() && ioError == 0 { break }
        throw watch.failure(rc == cff_averror_eof() ? ioError : rc, .playing)
      }
      if packet.pointee.stream_index == input.streamIndex {
        let sent = avcodec_send_packet(input.decoder, packet)
        if sent < 0 { try watch.decodeFailed(sent) }
        decoded += try drain(input.decoder, into: frame)
      }
      av_packet_unref(packet)
      packets += 1
      if packets % Self.titleCheckPackets == 0 { checkTitle(input) }
    }
    // The end: what the decoder still holds.
    if avcodec_send_packet(input.decoder, nil) >= 0 {
      decoded += try drain(input.decoder, into: frame)
    }
    return decoded
  }

  /// Takes every frame the decoder has ready into the channel; returns how many frames
  /// (sample frames, at the output rate) that was.
  private func drain(
    _ decoder: UnsafeMutablePointer<AVCodecContext>, into frame: UnsafeMutablePointer<AVFrame>
  ) throws(StreamFailure) -> Int {
    var total = 0
    while true {
      let rc = avcodec_receive_frame(decoder, frame)
      if rc == cff_averror(EAGAIN) || rc == cff_averror_eof() { return total }
      if rc < 0 {
        try watch.decodeFailed(rc)
        return total
      }
      defer { av_frame_unref(frame) }
      let samples = try resampler.convert(frame)
      total += samples.count / request.channels
      channel.push(samples)
      watch.audioDecoded()
    }
  }

  /// Sends a `title` frame when the station's ICY StreamTitle changed.
  private func checkTitle(_ input: MediaInput) {
    guard let metadata = input.icyMetadata, let new = IcyMetadata.streamTitle(metadata),
      new != title
    else { return }
    title = new
    channel.post(StreamWire.Message(.title, text: new))
  }
}

/// ICY (Shoutcast/Icecast) in-band metadata: `StreamTitle='Artist - Title';StreamUrl='';`.
public enum IcyMetadata {
  /// The `StreamTitle` value, nil when there is none. The value ends at `';` (titles may
  /// contain apostrophes), or at the last `'` of a block cut short.
  public static func streamTitle(_ metadata: String) -> String? {
    guard let start = metadata.firstRange(of: "StreamTitle='") else { return nil }
    let rest = metadata[start.upperBound...]
    let end = rest.firstRange(of: "';")?.lowerBound ?? rest.lastIndex(of: "'") ?? rest.endIndex
    return String(rest[..<end].trimmingWhitespace)
  }
}
