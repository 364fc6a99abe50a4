import AlarmCore
import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// One open stream: the demuxer over its connection and the decoder of its best audio
/// track, with what the `ready` frame says about them.
final class MediaInput {
  /// The address this input was opened from (a playlist's entry, before redirects).
  let url: String
  /// The demuxer.
  let format: UnsafeMutablePointer<AVFormatContext>
  /// The audio decoder.
  let decoder: UnsafeMutablePointer<AVCodecContext>
  /// The decoded stream's index in `format`.
  let streamIndex: Int32
  /// What `ready` says.
  let info: StreamWire.ReadyInfo
  /// The stream has a known duration: it ends, and loops (`rewind`) with loop=1.
  let finite: Bool
  /// The input is HLS (libavformat's `hls` demuxer).
  private let isHLS: Bool
  /// The connection, ours to close (the demuxer reads it as custom I/O).
  private var io: UnsafeMutablePointer<AVIOContext>?

  private init(
    url: String, format: UnsafeMutablePointer<AVFormatContext>,
    decoder: UnsafeMutablePointer<AVCodecContext>, streamIndex: Int32,
    io: UnsafeMutablePointer<AVIOContext>?
  ) {
    self.url = url
    self.format = format
    self.decoder = decoder
    self.streamIndex = streamIndex
    self.io = io
    isHLS = format.pointee.iformat.map { String(cString: $0.pointee.name) == "hls" } ?? false
    let duration = format.pointee.duration
    finite = duration != cff_nopts_value() && duration > 0
    let seekable =
      isHLS ? finite : (io.map { $0.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 } ?? false)
    let location = cff_io_option(io, "location")
    defer { av_free(location) }
    info = StreamWire.ReadyInfo(
      live: !finite || !seekable, codec: String(cString: decoder.pointee.codec.pointee.name),
      sourceRate: Int(decoder.pointee.sample_rate),
      url: StreamURL.redacted(location.map { String(cString: $0) } ?? url))
  }

  deinit {
    var decoder: UnsafeMutablePointer<AVCodecContext>? = decoder
    avcodec_free_context(&decoder)
    var format: UnsafeMutablePointer<AVFormatContext>? = format
    avformat_close_input(&format)
    avio_closep(&io)
  }

  /// Opens the demuxer and decoder over `io` (an open connection to `url`, whose bytes
  /// have not been read); takes `io` in every case, closing it on failure.
  static func open(url: String, io: UnsafeMutablePointer<AVIOContext>, watch: InputWatch)
    throws(StreamFailure) -> MediaInput
  {
    var io: UnsafeMutablePointer<AVIOContext>? = io
    guard let allocated = avformat_alloc_context() else {
      avio_closep(&io)
      throw StreamFailure("out of memory")
    }
    allocated.pointee.pb = io
    allocated.pointee.interrupt_callback = watch.callback
    var options = InputOptions.dictionary()
    defer { av_dict_free(&options) }
    var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
    let rc = avformat_open_input(&opened, url, nil, &options)
    // On failure avformat_open_input has freed the context, but not the custom I/O.
    guard rc >= 0, let format = opened else {
      avio_closep(&io)
      throw watch.failure(rc, .opening)
    }
    var ok = false
    var decoder: UnsafeMutablePointer<AVCodecContext>?
    defer {
      if !ok {
        avcodec_free_context(&decoder)
        opened = format
        avformat_close_input(&opened)
        avio_closep(&io)
      }
    }
    let found = avformat_find_stream_info(format, nil)
    if found < 0 { throw watch.failure(found, .opening) }
    var codec: UnsafePointer<AVCodec>?
    let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
    if index < 0 {
      throw index == cff_averror_decoder_not_found()
        ? StreamFailure("not audio: no decoder for this stream's codec")
        : watch.failure(index, .opening)
    }
    // The other tracks (an HLS master playlist's other variants) are not even fetched.
    for i in 0..<Int(format.pointee.nb_streams) where i != Int(index) {
      format.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL
    }
    decoder = avcodec_alloc_context3(codec)
    guard let decoder, let stream = format.pointee.streams[Int(index)] else {
      throw StreamFailure("out of memory")
    }
    var status = avcodec_parameters_to_context(decoder, stream.pointee.codecpar)
    if status < 0 { throw watch.failure(status, .opening) }
    decoder.pointee.pkt_timebase = stream.pointee.time_base
    decoder.pointee.thread_count = 1
    status = avcodec_open2(decoder, codec, nil)
    if status < 0 { throw watch.failure(status, .opening) }
    ok = true
    return MediaInput(url: url, format: format, decoder: decoder, streamIndex: index, io: io)
  }

  /// The station's name (ICY `icy-name` header), when it sends one.
  var stationName: String? {
    guard let headers = cff_io_option(io, "icy_metadata_headers") else { return nil }
    defer { av_free(headers) }
    for line in String(cString: headers).split(whereSeparator: \.isNewline) {
      let lower = line.lowercased()
      if lower.hasPrefix("icy-name:") {
        let name = String(line.dropFirst(9).trimmingWhitespace)
        return name.isEmpty ? nil : name
      }
    }
    return nil
  }

  /// The latest ICY metadata block (`StreamTitle='...';`), when the station sends them.
  var icyMetadata: String? {
    guard let packet = cff_io_option(io, "icy_metadata_packet") else { return nil }
    defer { av_free(packet) }
    return String(cString: packet)
  }

  /// Position in the connection's bytes (for the garbage watch).
  var connection: UnsafeMutablePointer<AVIOContext>? { io }

  /// Seeks back to the start for another loop; false when the input cannot seek (the
  /// caller opens it again). HLS is always opened again: its demuxer's seek to the start
  /// of a finished playlist is not reliable.
  func rewind() -> Bool {
    guard !isHLS, let stream = format.pointee.streams[Int(streamIndex)] else { return false }
    let start = stream.pointee.start_time
    let target = start == cff_nopts_value() ? 0 : start
    guard av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 else {
      return false
    }
    avcodec_flush_buffers(decoder)
    return true
  }
}
