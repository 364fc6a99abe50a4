/// The playlists radio stations publish instead of their stream's address: `.pls`
/// (`[playlist]`, `File1=...`) and plain `.m3u` (one address per line). HLS playlists
/// (`.m3u8` with `#EXT-X-` tags) are not these: they are decoded as a stream.
public enum StreamPlaylist: Sendable, Equatable {
  /// A PLS or M3U list: its http(s) entries, in order.
  case entries([String])
  /// An HLS media or master playlist: open the address itself as a stream.
  case hls
  /// Not a playlist (audio, or text of another kind).
  case notPlaylist

  /// The largest playlist read; stations' lists are a few hundred bytes.
  public static let maxBytes = 64 * 1024

  /// What `text` (the first bytes of a response, as UTF-8 or Latin-1) is.
  public static func classify(_ bytes: [UInt8]) -> StreamPlaylist {
    let text = String(decoding: bytes.prefix(maxBytes), as: UTF8.self)
    var body = Substring(text)
    if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
    let lines = body.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
      .map { String($0.trimmingWhitespace) }
      .filter { !$0.isEmpty }
    guard let first = lines.first else { return .notPlaylist }
    if first.lowercased() == "[playlist]" {
      return .entries(plsEntries(lines.dropFirst()))
    }
    if first.hasPrefix("#EXTM3U") && lines.contains(where: { $0.hasPrefix("#EXT-X-") }) {
      return .hls
    }
    // A plain M3U: comments and addresses only, each address on its own line. Binary audio
    // decoded as text has neither, so it is not mistaken for one.
    var entries: [String] = []
    for line in lines {
      if line.hasPrefix("#") { continue }
      guard StreamURL.isStream(line), !line.contains(where: { $0.isNewline || $0 == "\0" })
      else { return .notPlaylist }
      entries.append(line)
    }
    return entries.isEmpty ? .notPlaylist : .entries(entries)
  }

  /// `FileN=` entries in the order of N (then of appearance), http(s) only.
  private static func plsEntries(_ lines: ArraySlice<String>) -> [String] {
    var numbered: [(Int, Int, String)] = []
    for (i, line) in lines.enumerated() {
      guard let eq = line.firstIndex(of: "=") else { continue }
      let key = line[..<eq].lowercased()
      guard key.hasPrefix("file"), let n = Int(key.dropFirst(4)) else { continue }
      let value = String(line[line.index(after: eq)...].trimmingWhitespace)
      if StreamURL.isStream(value) { numbered.append((n, i, value)) }
    }
    return numbered.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
  }
}
