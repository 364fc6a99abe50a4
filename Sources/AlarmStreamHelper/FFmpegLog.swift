import AlarmCore
import AlarmPlatform
import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// What FFmpeg logs that the helper needs: how many HTTP requests an open made (a
/// redirect loop fails with a bare EIO), the server's HTTP status line, the last error
/// line. Warnings and errors go to stderr too, a bounded number per process; stdout is
/// the data channel and FFmpeg never writes there.
enum FFmpegLog {
  /// What has been logged since the last `reset()`.
  struct Said: Sendable {
    /// HTTP requests made (libavformat logs each at debug level).
    var requests = 0
    /// The last "HTTP error 404 Not Found" line.
    var httpError: String?
    /// The last error-level line.
    var lastError: String?
    /// The last "Protocol 'file' not on whitelist ..." line: an address the helper must
    /// not open (an HLS segment or key on the local disk).
    var refusedProtocol: String?
  }

  private struct State {
    var said = Said()
    var printed = 0
    var lastPrinted = ""
  }

  /// At most this many FFmpeg lines reach stderr.
  private static let printLimit = 20
  private static let state = Locked(State())

  /// Routes FFmpeg's log through `callback`; call once, before any FFmpeg call.
  static func install() {
    av_log_set_level(AV_LOG_WARNING)
    cff_log_install(callback)
  }

  /// Whether debug lines are looked at: on while opening (to count requests), off while
  /// playing (decoders log per packet at that level).
  static func countRequests(_ on: Bool) {
    av_log_set_level(on ? AV_LOG_DEBUG : AV_LOG_WARNING)
  }

  /// Forgets what was said (before an open).
  static func reset() { state.withLock { $0.said = Said() } }

  /// What was said since the last `reset()`.
  static var said: Said { state.withLock { $0.said } }

  private static let callback: cff_log_sink = { level, format, line in
    guard let format else { return }
    guard let line else {
      if strncmp(format, "request: ", 9) == 0 { state.withLock { $0.said.requests += 1 } }
      return
    }
    let text = String(String(cString: line).trimmingWhitespace)
    guard !text.isEmpty else { return }
    let print = state.withLock { s -> Bool in
      if strncmp(format, "HTTP error ", 11) == 0 { s.said.httpError = text }
      if level <= AV_LOG_ERROR { s.said.lastError = text }
      if text.contains("not on whitelist") { s.said.refusedProtocol = text }
      // A decoder fed garbage says the same thing per packet: once is enough.
      if text == s.lastPrinted { return false }
      s.lastPrinted = text
      s.printed += 1
      return s.printed <= printLimit
    }
    if print { HelperLog.write("ffmpeg: " + text) }
  }
}

/// The helper's own stderr lines (the service's journal, a terminal).
enum HelperLog {
  /// Writes one line to stderr, prefixed with the program's name.
  static func write(_ line: String) {
    try? FileDescriptor.writeAll(Array(("alarmclock-stream: " + line + "\n").utf8), toRaw: 2)
  }
}
