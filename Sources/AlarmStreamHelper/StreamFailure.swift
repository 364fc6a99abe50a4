import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// Why the stream stopped, in the words the `problem` frame carries (and `status` shows).
struct StreamFailure: Error, Sendable, Equatable {
  /// The reason, plain English.
  var reason: String

  init(_ reason: String) { self.reason = reason }

  /// Where an FFmpeg error happened: the same code means different things in each.
  enum Phase {
    /// Connecting, reading headers, probing, opening the decoder.
    case opening
    /// Reading and decoding the stream once it is open.
    case playing
  }

  /// The failure for FFmpeg's error `code` in `phase`, using what FFmpeg logged since
  /// the open began (the HTTP status line, the count of requests, its last error line).
  static func ffmpeg(_ code: Int32, _ phase: Phase, said: FFmpegLog.Said = FFmpegLog.said)
    -> StreamFailure
  {
    if let http = httpStatus(code) { return StreamFailure(said.httpError ?? http) }
    if let refused = said.refusedProtocol {
      return StreamFailure("only http:// and https:// addresses are opened (\(refused))")
    }
    switch code {
    case cff_averror(ECONNREFUSED):
      return StreamFailure("connection refused")
    case cff_averror(ETIMEDOUT):
      // tcp logs "Connection to tcp://host:port failed" when the connect itself timed out.
      let connecting = said.lastError?.hasPrefix("Connection to") ?? false
      return StreamFailure(
        connecting
          ? "timed out: the server did not accept the connection"
          : "timed out: no data for \(InputOptions.stallText)")
    case cff_averror(EIO) where said.requests > InputOptions.maxRedirects:
      return StreamFailure("too many redirects")
    case cff_averror(EIO) where said.lastError?.contains("certificate failed verification") ?? false:
      return StreamFailure(
        "https: the server's certificate is not trusted (expired, self-signed, or for "
          + "another name)")
    case cff_averror(EIO) where said.lastError?.hasPrefix("Stream ends prematurely") ?? false:
      // The http protocol's word for a connection closed without a Content-Length.
      return ffmpeg(cff_averror_eof(), phase, said: said)
    case cff_averror(ECONNRESET), cff_averror(EPIPE):
      return StreamFailure("the server reset the connection")
    case cff_averror(ENETUNREACH):
      return StreamFailure("the network is unreachable")
    case cff_averror(EHOSTUNREACH):
      return StreamFailure("no route to the server")
    case cff_averror_eof():
      return StreamFailure(
        phase == .opening ? "the server ended the stream before any audio" : serverEnded)
    case cff_averror_invaliddata():
      return StreamFailure("not audio: " + message(code))
    case cff_averror_stream_not_found():
      return StreamFailure("not audio: the stream has no audio track")
    case cff_averror_protocol_not_found():
      return StreamFailure("only http:// and https:// streams can be opened")
    default:
      let text = message(code)
      guard let line = said.lastError, line != text else { return StreamFailure(text) }
      return StreamFailure(text + " (" + line + ")")
    }
  }

  /// A live stream's end.
  static let serverEnded = "the server ended the stream"

  /// The text for an HTTP status error, when `code` is one.
  private static func httpStatus(_ code: Int32) -> String? {
    switch code {
    case cff_averror_http_bad_request(): return "HTTP error 400 Bad Request"
    case cff_averror_http_unauthorized(): return "HTTP error 401 Unauthorized"
    case cff_averror_http_forbidden(): return "HTTP error 403 Forbidden"
    case cff_averror_http_not_found(): return "HTTP error 404 Not Found"
    case cff_averror_http_other_4xx(): return "HTTP error 4xx (the server refused the request)"
    case cff_averror_http_server_error(): return "HTTP error 5xx (the server failed)"
    default: return nil
    }
  }

  /// FFmpeg's text for an error code (av_strerror: strerror for errno codes).
  static func message(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
