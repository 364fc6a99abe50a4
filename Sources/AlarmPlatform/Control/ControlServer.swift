import AlarmCore

#if canImport(Glibc)
  import Glibc
#endif

/// The control socket's line server on an `EventLoop`: each request line gets one reply line.
///
/// Nothing a client does can stall the loop or exhaust memory: reads and writes are
/// non-blocking, each client's pending output is capped (a client that does not read its
/// replies is dropped), lines are capped (an over-long line gets `lineTooLong()` and the
/// connection is closed), and so is the number of clients. Client work is `.client`
/// priority on the loop: inputs, timers and signals always come first. Clients are served
/// round-robin, one request each per turn; a client with buffered requests is not read
/// (the kernel's buffer pushes back), and one over its handler-time budget is parked.
/// Idle clients are closed after `idleTimeout`; at the cap the oldest idle one makes room.
public final class ControlServer {
  /// The server's bounds.
  public struct Limits: Sendable {
    /// Concurrent connections served; past it the oldest idle one is closed, or if none is
    /// idle the newcomer is told so and closed.
    public var maxClients = 512
    /// Longest request line in bytes, without its newline.
    public var maxLineBytes = 64 << 10
    /// Reply bytes queued for one slow client before it is dropped.
    public var maxPendingOutput = 1 << 20
    /// A client that sends no complete request for this long is told so and closed.
    public var idleTimeout: Duration = .seconds(60)
    /// Handler time one client may use per second on average, and in one burst; a client
    /// over it is not read until its budget refills.
    public var handlerTimePerSecond: Duration = .milliseconds(250)
    public var handlerTimeBurst: Duration = .milliseconds(500)

    public init(
      maxClients: Int = 512, maxLineBytes: Int = 64 << 10, maxPendingOutput: Int = 1 << 20,
      idleTimeout: Duration = .seconds(60),
      handlerTimePerSecond: Duration = .milliseconds(250),
      handlerTimeBurst: Duration = .milliseconds(500)
    ) {
      self.maxClients = maxClients
      self.maxLineBytes = maxLineBytes
      self.maxPendingOutput = maxPendingOutput
      self.idleTimeout = idleTimeout
      self.handlerTimePerSecond = handlerTimePerSecond
      self.handlerTimeBurst = handlerTimeBurst
    }

    /// The client cap for a process allowed `fileLimit` descriptors: well below it, with
    /// `reserve` left for everything else (a ring's sound file and PCM, hooks, the state
    /// file), and never more than 512.
    public static func maxClients(fileLimit: Int, reserve: Int = 64) -> Int {
      max(4, min(512, (fileLimit - reserve) / 2))
    }
  }

  /// Answers one request line (without its newline or CR, raw bytes: decoding and
  /// validation are the protocol's job). The handler calls `responder.reply` exactly once,
  /// at once or later on the loop's thread (for a change that must reach the disk first);
  /// the connection's next request waits until then, so replies keep their order.
  public typealias Handler = (_ request: ArraySlice<UInt8>, _ responder: ControlResponder) -> Void

  public let listener: UnixListener
  public let limits: Limits
  let loop: EventLoop
  private let handler: Handler
  private let lineTooLong: [UInt8]
  let tooManyClients: [UInt8]
  let evicted: [UInt8]
  let idleTimedOut: [UInt8]
  var connections: [Int32: ControlConnection] = [:]
  // Held open so that when descriptors run out (EMFILE) a pending connection can still be
  // accepted and closed; otherwise the listener stays readable and the loop would spin.
  private var spare: FileDescriptor?
  /// One monotonic timer for every client's idle deadline and parking; armed only while
  /// clients are connected.
  let timer: TimerFd
  var timerDeadline: Duration?

  /// The number of connected clients.
  public var clientCount: Int { connections.count }

  /// Starts accepting on `listener`'s socket; handlers run on `loop`'s thread.
  public init(
    listener: UnixListener, loop: EventLoop, limits: Limits = Limits(),
    handler: @escaping Handler,
    lineTooLong: [UInt8],
    tooManyClients: [UInt8],
    evicted: [UInt8] = ControlServer.failureLine(
      "closed to make room: the server is full and this connection was idle the longest"),
    idleTimedOut: [UInt8] = ControlServer.failureLine(
      "closed: no request for a while; connect again when needed")
  ) throws(SystemError) {
    self.listener = listener
    self.loop = loop
    self.limits = limits
    self.handler = handler
    self.lineTooLong = lineTooLong
    self.tooManyClients = tooManyClients
    self.evicted = evicted
    self.idleTimedOut = idleTimedOut
    timer = try TimerFd(clock: .monotonic)
    spare = try? FileDescriptor.open("/dev/null", O_RDONLY)
    try loop.register(listener.descriptor, interest: .readable, priority: .client) {
      [weak self] _ in self?.acceptPending()
    }
    try loop.register(timer.descriptor, interest: .readable) { [weak self] _ in
      self?.timerFired()
    }
  }

  /// An `internal` error reply line, for the server's own notices.
  public static func failureLine(_ message: String) -> [UInt8] {
    Array(ControlReply.failure(ControlError(.internal, message)).encodedLine().dropLast())
  }

  /// Closes every connection and the listener (removing its socket file).
  public func close() {
    loop.unregister(listener.descriptor)
    loop.unregister(timer.descriptor)
    for connection in Array(connections.values) { drop(connection) }
    listener.close()
    spare?.close()
  }

  private func acceptPending() {
    // Bounded so a connect storm cannot hold the loop; epoll reports the rest next turn.
    for _ in 0..<64 {
      let client: FileDescriptor
      do throws(SystemError) {
        guard let accepted = try listener.accept() else { return }
        client = accepted
      } catch  where error.errno == EMFILE || error.errno == ENFILE {
        shedOneConnection()
        return
      } catch {
        return  // ENOBUFS, EPROTO...: transient; the next readiness retries.
      }
      guard connections.count < limits.maxClients || evictOldestIdle() else {
        tell(client, tooManyClients)
        continue
      }
      let now = TimerFd.Clock.monotonic.now()
      let connection = ControlConnection(fd: client, now: now, credit: limits.handlerTimeBurst)
      connections[client.rawValue] = connection
      do throws(SystemError) {
        try loop.register(client, interest: .readable, priority: .client) {
          [weak self, weak connection] events in
          guard let self, let connection else { return }
          self.handle(events, on: connection)
        }
      } catch {
        connections[client.rawValue] = nil
        client.close()
        continue
      }
      armTimer(at: now + limits.idleTimeout)
    }
  }

  private func shedOneConnection() {
    spare?.close()
    if let client = try? listener.accept() { tell(client, tooManyClients) }
    spare = try? FileDescriptor.open("/dev/null", O_RDONLY)
  }

  /// Sends `line` to a client without blocking and closes it.
  func tell(_ client: FileDescriptor, _ line: [UInt8]) {
    let bytes = line + [UInt8(ascii: "\n")]
    _ = bytes.withUnsafeBytes {
      Glibc.send(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
    client.close()
  }

  private func handle(_ events: IOEvents, on connection: ControlConnection) {
    if connection.draining {
      drain(connection)
      return
    }
    if events.contains(.readable) && wantsInput(connection) {
      readAvailable(connection)
      if connection.isDropped { return }
      serveNext(connection)
      if connection.isDropped { return }
    }
    if events.contains(.error)
      || (events.contains(.hangup) && !events.contains(.readable))
    {
      drop(connection)
      return
    }
    flush(connection)
  }

  /// Reading is paused while a request is buffered, answered or parked.
  private func wantsInput(_ c: ControlConnection) -> Bool {
    c.reading && !c.awaitingReply && !c.queued && c.parkedUntil == nil && !c.refused
      && !c.hasLine
  }

  private func readAvailable(_ connection: ControlConnection) {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    // Until a request is complete: the rest waits in the kernel until it is answered.
    for _ in 0..<8 {
      guard let n = receive(connection, into: &chunk) else { return }
      if n == 0 {
        // The client finished sending; a last line without newline still counts.
        connection.reading = false
        connection.endOfInput = true
        return
      }
      connection.input += chunk[..<n]
      if connection.hasLine { return }
      if connection.input.count - connection.start > limits.maxLineBytes { return }
    }
  }

  /// Answers one buffered request (if any and allowed now), then arranges the next.
  func serveNext(_ connection: ControlConnection) {
    guard !connection.isDropped, !connection.awaitingReply, !connection.refused,
      connection.parkedUntil == nil
    else { return }
    if let line = connection.takeLine() { respond(to: line, on: connection) }
    arrangeNext(connection)
  }

  /// A client with more buffered requests queues for its next turn; one with none is read
  /// again (through `flush`'s interest update).
  func arrangeNext(_ connection: ControlConnection) {
    guard !connection.isDropped else { return }
    if !connection.awaitingReply { connection.compact() }
    if !connection.refused && !connection.hasLine
      && connection.input.count - connection.start > limits.maxLineBytes
    {
      refuseLongLine(connection)
      return
    }
    if connection.endOfInput && connection.start == connection.input.count
      && !connection.awaitingReply
    {
      connection.closeWhenFlushed = true
    }
    guard !connection.awaitingReply, !connection.queued, !connection.refused,
      connection.parkedUntil == nil, connection.hasLine
    else { return }
    connection.queued = true
    loop.queueClientWork { [weak self, weak connection] in
      guard let self, let connection else { return }
      connection.queued = false
      self.serveNext(connection)
      self.flush(connection)
    }
  }

  private func respond(to rawLine: ArraySlice<UInt8>, on connection: ControlConnection) {
    var line = rawLine
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard line.count <= limits.maxLineBytes else {
      refuseLongLine(connection)
      return
    }
    let began = TimerFd.Clock.monotonic.now()
    connection.lastActive = began
    connection.awaitingReply = true
    connection.inHandler = true
    handler(line, ControlResponder(server: self, connection: connection))
    connection.inHandler = false
    charge(connection, began: began, ended: TimerFd.Clock.monotonic.now())
  }

  /// A reply for `connection`'s oldest unanswered request.
  func complete(_ connection: ControlConnection, with reply: [UInt8]) {
    guard !connection.isDropped, connection.awaitingReply else { return }
    connection.awaitingReply = false
    enqueue(reply, on: connection)
    // A synchronous reply is flushed by the read path; a deferred one resumes the client.
    guard !connection.inHandler, !connection.isDropped else { return }
    arrangeNext(connection)
    flush(connection)
  }

  private func refuseLongLine(_ connection: ControlConnection) {
    connection.input.removeAll()
    connection.start = 0
    connection.scanned = 0
    connection.reading = false
    connection.refused = true
    connection.closeWhenFlushed = true
    connection.drainBeforeClose = true
    enqueue(lineTooLong, on: connection)
  }

  private func enqueue(_ reply: [UInt8], on connection: ControlConnection) {
    connection.output += reply
    connection.output.append(UInt8(ascii: "\n"))
    if connection.output.count - connection.sent > limits.maxPendingOutput {
      drop(connection)
    }
  }

  func flush(_ connection: ControlConnection) {
    guard !connection.isDropped else { return }
    let fd = connection.fd.rawValue
    while connection.sent < connection.output.count {
      let sent = connection.sent
      let n: Int
      do throws(SystemError) {
        n = try retryingEINTR("send(control client)") {
          connection.output.withUnsafeBytes {
            Glibc.send(
              fd, $0.baseAddress! + sent, $0.count - sent,
              Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
          }
        }
      } catch  where error.isWouldBlock {
        break
      } catch {
        drop(connection)
        return
      }
      connection.sent += n
    }
    if connection.sent == connection.output.count {
      connection.output.removeAll(keepingCapacity: connection.output.count <= 4096)
      connection.sent = 0
      if connection.awaitingReply || connection.queued {
        updateInterest(connection)
        return
      }
      if connection.closeWhenFlushed && connection.drainBeforeClose && !connection.draining {
        // Closing with the client's bytes still unread would reset the connection, and the
        // client might never read the reply: end our side, discard what it sends, close
        // on its end of file (or after `drainLimit` bytes).
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        connection.draining = true
        connection.reading = true
        updateInterest(connection)
        return
      }
      if connection.closeWhenFlushed {
        drop(connection)
        return
      }
    } else if connection.sent > 64 << 10 {
      connection.output.removeFirst(connection.sent)
      connection.sent = 0
    }
    updateInterest(connection)
  }

  /// One recv(2) into `chunk`: the byte count (0 at the client's end of file), or nil when
  /// nothing is waiting or the connection failed (it is dropped then).
  private func receive(_ connection: ControlConnection, into chunk: inout [UInt8]) -> Int? {
    let fd = connection.fd.rawValue
    do throws(SystemError) {
      return try retryingEINTR("recv(control client)") {
        chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
      }
    } catch  where error.isWouldBlock {
      return nil
    } catch {
      drop(connection)
      return nil
    }
  }

  /// Bytes discarded from a refused client before it is closed regardless.
  static let drainLimit = 4 << 20

  private func drain(_ connection: ControlConnection) {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    for _ in 0..<8 {
      guard let n = receive(connection, into: &chunk) else { return }
      connection.drained += n
      if n == 0 || connection.drained > ControlServer.drainLimit {
        drop(connection)
        return
      }
    }
  }

  func updateInterest(_ connection: ControlConnection) {
    var interest: IOEvents = []
    // Unread requests stay in the kernel's buffer, which makes the client wait.
    if connection.draining || wantsInput(connection) { interest.insert(.readable) }
    if connection.sent < connection.output.count { interest.insert(.writable) }
    guard interest != connection.interest else { return }
    do throws(SystemError) {
      try loop.modify(connection.fd, interest: interest)
      connection.interest = interest
    } catch {
      drop(connection)
    }
  }

  func drop(_ connection: ControlConnection) {
    guard !connection.isDropped else { return }
    connection.isDropped = true
    loop.unregister(connection.fd)
    connections[connection.fd.rawValue] = nil
    connection.fd.close()
    if connections.isEmpty { disarmTimer() }
  }
}
