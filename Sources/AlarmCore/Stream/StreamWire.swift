/// The stream helper's wire format: what the service (or `alarmclock play`) asks the
/// helper for, and the messages the helper sends back. docs/audio.md ("Streams") is its
/// reference.
///
/// The client writes one request line; the helper answers with framed messages until it
/// ends (a `problem`, or the client closing). A frame is a type byte, a payload length
/// (4 bytes, little-endian) and the payload.
public enum StreamWire {
  /// The first word of a request line: the protocol and its version.
  public static let magic = "ALARMCLOCK-STREAM/1"
  /// The longest request line accepted (the URL is at most `StreamURL.maxLength`).
  public static let maxRequestBytes = 4096
  /// The largest payload a frame may carry.
  public static let maxPayload = 1 << 20
  /// Bytes before each payload: type and length.
  public static let headerBytes = 5

  /// What the client asks for.
  public struct Request: Sendable, Equatable {
    /// The stream's address (checked with `StreamURL.problem`).
    public var url: String
    /// Frames per second of the PCM wanted.
    public var rate: Int
    /// Channels per frame of the PCM wanted (1 or 2).
    public var channels: Int
    /// Start again at the end of a finite stream (a file over HTTP); a live stream that
    /// ends is a problem either way.
    public var loop: Bool

    public init(url: String, rate: Int = 48_000, channels: Int = 2, loop: Bool = true) {
      self.url = url
      self.rate = rate
      self.channels = channels
      self.loop = loop
    }

    /// The request line, newline included.
    public var line: String {
      "\(StreamWire.magic) rate=\(rate) channels=\(channels) loop=\(loop ? 1 : 0) url=\(url)\n"
    }

    /// Parses a request line (without its newline); the error says what is wrong.
    public static func parse(_ line: String) -> Result<Request, StreamWireError> {
      var words = line.split(separator: " ", omittingEmptySubsequences: true)
      guard words.first == Substring(StreamWire.magic) else {
        return .failure(StreamWireError("the request does not start with \(StreamWire.magic)"))
      }
      words.removeFirst()
      var request = Request(url: "")
      var seenURL = false
      for word in words {
        guard let eq = word.firstIndex(of: "=") else {
          return .failure(StreamWireError("'\(word)' is not key=value"))
        }
        let key = word[..<eq]
        let value = String(word[word.index(after: eq)...])
        switch key {
        case "rate":
          guard let n = Int(value), (8_000...192_000).contains(n) else {
            return .failure(StreamWireError("rate '\(value)' is not 8000-192000"))
          }
          request.rate = n
        case "channels":
          guard let n = Int(value), (1...2).contains(n) else {
            return .failure(StreamWireError("channels '\(value)' is not 1 or 2"))
          }
          request.channels = n
        case "loop":
          guard value == "0" || value == "1" else {
            return .failure(StreamWireError("loop '\(value)' is not 0 or 1"))
          }
          request.loop = value == "1"
        case "url":
          request.url = value
          seenURL = true
        default:
          return .failure(StreamWireError("unknown key '\(key)'"))
        }
      }
      guard seenURL else { return .failure(StreamWireError("the request has no url=")) }
      if let problem = StreamURL.problem(request.url) {
        return .failure(StreamWireError(problem))
      }
      return .success(request)
    }
  }

  /// A frame's type byte.
  public enum Kind: UInt8, Sendable {
    /// The stream is open: `Ready` as text (`ReadyInfo.text`). PCM follows.
    case ready = 1
    /// Interleaved signed 16-bit little-endian samples at the requested rate and channels.
    case pcm = 2
    /// The station's title for what plays now (ICY `StreamTitle`), UTF-8.
    case title = 3
    /// Why the stream stopped, UTF-8; the helper ends after it.
    case problem = 4
    /// Something worth a log line that changes nothing (a playlist followed), UTF-8.
    case notice = 5
  }

  /// One decoded frame.
  public struct Message: Sendable, Equatable {
    public var kind: Kind
    public var payload: [UInt8]

    public init(_ kind: Kind, _ payload: [UInt8]) {
      self.kind = kind
      self.payload = payload
    }

    public init(_ kind: Kind, text: String) {
      self.init(kind, Array(text.utf8))
    }

    /// The payload as text (title, problem, notice, ready).
    public var text: String { String(decoding: payload, as: UTF8.self) }
  }

  /// The header of a frame carrying `payloadCount` bytes of `kind`.
  public static func header(_ kind: Kind, payloadCount: Int) -> [UInt8] {
    let n = UInt32(payloadCount)
    return [
      kind.rawValue, UInt8(n & 0xff), UInt8((n >> 8) & 0xff), UInt8((n >> 16) & 0xff),
      UInt8(n >> 24),
    ]
  }

  /// A whole frame.
  public static func encode(_ message: Message) -> [UInt8] {
    header(message.kind, payloadCount: message.payload.count) + message.payload
  }

  /// What the helper says in its `ready` frame.
  public struct ReadyInfo: Sendable, Equatable {
    /// Whether the stream is live (no end, no seeking: a station), not a file.
    public var live: Bool
    /// The decoder's name (mp3, aac, vorbis, opus, ...).
    public var codec: String
    /// The stream's own rate, before resampling.
    public var sourceRate: Int
    /// The address finally opened (after playlists; redirects are HTTP's).
    public var url: String

    public init(live: Bool, codec: String, sourceRate: Int, url: String) {
      self.live = live
      self.codec = codec
      self.sourceRate = sourceRate
      self.url = url
    }

    public var text: String {
      "live=\(live ? 1 : 0) codec=\(codec) source_rate=\(sourceRate) url=\(url)"
    }

    public static func parse(_ text: String) -> ReadyInfo? {
      var info = ReadyInfo(live: true, codec: "", sourceRate: 0, url: "")
      for word in text.split(separator: " ") {
        guard let eq = word.firstIndex(of: "=") else { return nil }
        let value = String(word[word.index(after: eq)...])
        switch word[..<eq] {
        case "live": info.live = value == "1"
        case "codec": info.codec = value
        case "source_rate": info.sourceRate = Int(value) ?? 0
        case "url": info.url = value
        default: continue  // newer helpers may say more
        }
      }
      return info
    }
  }
}

/// A request or frame that breaks the wire format.
public struct StreamWireError: Error, Sendable, Equatable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Splits a byte stream into frames as bytes arrive (from a socket read of any size).
public struct StreamFrameDecoder: Sendable {
  private var buffer: [UInt8] = []
  private var start = 0

  public init() {}

  /// Adds bytes that arrived.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, nil when more bytes are needed, or an error for a frame that
  /// breaks the format (an unknown type, a payload over `StreamWire.maxPayload`).
  public mutating func next() throws(StreamWireError) -> StreamWire.Message? {
    guard buffer.count - start >= StreamWire.headerBytes else { return nil }
    let type = buffer[start]
    let n =
      Int(buffer[start + 1]) | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3]) << 16
      | Int(buffer[start + 4]) << 24
    guard let kind = StreamWire.Kind(rawValue: type) else {
      throw StreamWireError("unknown frame type \(type)")
    }
    guard n <= StreamWire.maxPayload else {
      throw StreamWireError("a frame of \(n) bytes (at most \(StreamWire.maxPayload))")
    }
    guard buffer.count - start >= StreamWire.headerBytes + n else { return nil }
    let from = start + StreamWire.headerBytes
    let message = StreamWire.Message(kind, Array(buffer[from..<(from + n)]))
    start = from + n
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    return message
  }
}
