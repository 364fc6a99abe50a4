/// One control client's buffers and state (owned by its `ControlServer`).
final class ControlConnection {
  let fd: FileDescriptor
  var input: [UInt8] = []
  var start = 0  // input before this index is answered
  var scanned = 0  // input[start..<scanned] holds no newline
  var output: [UInt8] = []
  var sent = 0  // output before this index is written
  var reading = true
  /// The client shut down its sending side.
  var endOfInput = false
  /// A request is with the handler and its reply has not come yet.
  var awaitingReply = false
  /// The handler is running for this connection (its reply, if given now, is flushed later).
  var inHandler = false
  /// Its next buffered request waits in the loop's client queue.
  var queued = false
  /// Over its handler-time budget: not read nor answered until then (monotonic time).
  var parkedUntil: Duration?
  /// Handler time it may still use, and when that was last topped up.
  var credit: Duration
  var creditStamp: Duration
  /// When it connected or last sent a complete request (monotonic time).
  var lastActive: Duration
  /// An over-long line was refused: nothing more is answered.
  var refused = false
  var closeWhenFlushed = false
  /// After a refused line: drain the client's input before closing (see `flush`).
  var drainBeforeClose = false
  var draining = false
  var drained = 0
  var isDropped = false
  var interest: IOEvents = .readable

  init(fd: FileDescriptor, now: Duration, credit: Duration) {
    self.fd = fd
    self.credit = credit
    creditStamp = now
    lastActive = now
  }

  /// True when a complete request is buffered (or a last unterminated one after EOF).
  var hasLine: Bool {
    if let newline = input[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
      scanned = newline
      return true
    }
    scanned = input.count
    return endOfInput && start < input.count
  }

  /// Takes the next buffered request, without its newline.
  func takeLine() -> ArraySlice<UInt8>? {
    guard hasLine else { return nil }
    let end = scanned < input.count ? scanned : input.count
    let line = input[start..<end]
    start = min(end + 1, input.count)
    scanned = start
    return line
  }

  /// Forgets answered input (cheaply: only when most of the buffer is answered).
  func compact() {
    guard start > 0, start == input.count || start >= 16 << 10 else { return }
    input.removeFirst(start)
    scanned -= start
    start = 0
  }

  /// No complete request buffered nor with the handler (a partial line, unread replies or
  /// a refused client's drain do not count as activity).
  var isIdle: Bool { !awaitingReply && !queued && !hasLine }
}

/// The way to answer one request: `reply` once, now or later, on the loop's thread.
/// Replying after the client has gone does nothing.
public final class ControlResponder {
  private weak var server: ControlServer?
  private weak var connection: ControlConnection?
  private var replied = false

  init(server: ControlServer, connection: ControlConnection) {
    self.server = server
    self.connection = connection
  }

  /// Sends `line` (without its newline) as the reply.
  public func reply(_ line: [UInt8]) {
    guard !replied else { return }
    replied = true
    guard let server, let connection else { return }
    server.complete(connection, with: line)
  }
}
