import AlarmCore
import CFFmpeg

/// Which responses are read as a playlist before anything is decoded.
///
/// PLS and plain M3U are not formats libavformat reads, so the helper looks first: a
/// response is read as text (at most `StreamPlaylist.maxBytes`) and classified when the
/// URL's path (or the address redirected to) ends in `.pls` or `.m3u`, or the response's
/// MIME type is a playlist's (`audio/x-scpls`, `audio/x-mpegurl`, `audio/mpegurl`,
/// `application/pls+xml`) or `text/plain` (audio never is). Everything else, `.m3u8`
/// included, goes to libavformat on the same connection: its `hls` demuxer reads HLS.
public enum PlaylistRule {
  /// The MIME types of playlists.
  public static let mimeTypes: Set<String> = [
    "audio/x-scpls", "audio/x-mpegurl", "audio/mpegurl", "application/pls+xml", "text/plain",
  ]

  /// Whether a response for `urls` (the address asked for, then the final one) with
  /// `mimeType` is read and classified as a playlist.
  public static func readsAsPlaylist(urls: [String], mimeType: String?) -> Bool {
    if let mimeType {
      let bare = mimeType.split(separator: ";").first.map { $0.trimmingWhitespace.lowercased() }
      if let bare, mimeTypes.contains(bare) { return true }
    }
    return urls.contains { url in
      let path = url.split(whereSeparator: { $0 == "?" || $0 == "#" }).first ?? ""
      let lower = path.lowercased()
      return lower.hasSuffix(".pls") || lower.hasSuffix(".m3u")
    }
  }

  /// Whether the first bytes of a response can be a playlist's text: no NUL, no control
  /// characters but tab and line breaks (audio fails this in its first bytes).
  public static func mayBeText(_ bytes: ArraySlice<UInt8>) -> Bool {
    !bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0a && $0 != 0x0d }
  }
}

/// Opens a stream's address: follows PLS/M3U playlists (entries in order, nested at most
/// `maxDepth` deep), and opens everything else as audio.
struct InputOpener {
  /// Playlists within playlists are followed this deep.
  static let maxDepth = 3

  let watch: InputWatch
  /// Says which playlist entry is followed (a `notice` frame).
  let notice: (String) -> Void

  /// Opens `url`, within `InputOptions.openLimit` for all its playlists and entries.
  func open(_ url: String) throws(StreamFailure) -> MediaInput {
    watch.opening()
    FFmpegLog.countRequests(true)
    defer { FFmpegLog.countRequests(false) }
    return try open(url, depth: 0)
  }

  private func open(_ url: String, depth: Int) throws(StreamFailure) -> MediaInput {
    var io: UnsafeMutablePointer<AVIOContext>? = try connect(url)
    let mime = cff_io_option(io, "mime_type")
    let location = cff_io_option(io, "location")
    let urls = [url] + (location.map { [String(cString: $0)] } ?? [])
    let readsPlaylist = PlaylistRule.readsAsPlaylist(
      urls: urls, mimeType: mime.map { String(cString: $0) })
    av_free(mime)
    av_free(location)
    if !readsPlaylist { return try MediaInput.open(url: url, io: io!, watch: watch) }
    let text: [UInt8]
    do {
      text = try read(io!)
    } catch {
      avio_closep(&io)
      throw error
    }
    avio_closep(&io)
    switch StreamPlaylist.classify(text) {
    case .entries(let entries):
      return try follow(entries, of: url, depth: depth)
    case .hls, .notPlaylist:
      // Audio after all, or HLS (libavformat's): from the start, on a new connection.
      return try MediaInput.open(url: url, io: connect(url), watch: watch)
    }
  }

  private func follow(_ entries: [String], of playlist: String, depth: Int)
    throws(StreamFailure) -> MediaInput
  {
    guard depth < Self.maxDepth else {
      throw StreamFailure("playlists nested more than \(Self.maxDepth) deep")
    }
    guard !entries.isEmpty else {
      throw StreamFailure("the playlist \(StreamURL.redacted(playlist)) has no http(s) entry")
    }
    var last = StreamFailure("the playlist has no entry")
    for (i, entry) in entries.enumerated() {
      notice(
        "playlist \(StreamURL.redacted(playlist)): following entry \(i + 1) of "
          + "\(entries.count), \(StreamURL.redacted(entry))")
      do {
        return try open(entry, depth: depth + 1)
      } catch {
        last = error
        // Past the open deadline every later entry would fail the same way.
        if watch.reason != nil { break }
      }
    }
    if entries.count == 1 { throw last }
    throw StreamFailure("no entry of the playlist could be opened; the last: \(last.reason)")
  }

  /// A connection to `url` (redirects followed), its response's headers read.
  private func connect(_ url: String) throws(StreamFailure) -> UnsafeMutablePointer<AVIOContext> {
    FFmpegLog.reset()
    var io: UnsafeMutablePointer<AVIOContext>?
    var options = InputOptions.dictionary()
    defer { av_dict_free(&options) }
    var callback = watch.callback
    let rc = avio_open2(&io, url, AVIO_FLAG_READ, &callback, &options)
    guard rc >= 0, let io else { throw watch.failure(rc, .opening) }
    return io
  }

  /// A playlist's bytes: up to `StreamPlaylist.maxBytes`, or fewer when the first ones
  /// cannot be text.
  private func read(_ io: UnsafeMutablePointer<AVIOContext>) throws(StreamFailure) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: StreamPlaylist.maxBytes)
    var count = 0
    while count < bytes.count {
      // A small first read: audio mistaken for a playlist is told apart in its first bytes.
      let want = count == 0 ? 512 : bytes.count - count
      let n = bytes.withUnsafeMutableBufferPointer { buffer in
        avio_read(io, buffer.baseAddress! + count, Int32(want))
      }
      if n == cff_averror_eof() || n == 0 { break }
      if n < 0 { throw watch.failure(n, .opening) }
      count += Int(n)
      if !PlaylistRule.mayBeText(bytes[0..<min(count, 512)]) { break }
    }
    return Array(bytes[0..<count])
  }
}
