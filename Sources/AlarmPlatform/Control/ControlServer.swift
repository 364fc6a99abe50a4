#if canImport(Glibc)
  import Glibc
#endif

/// The control socket's line server on an `EventLoop`: each request line gets one reply line.
///
/// Nothing a client does can stall the loop or exhaust memory: reads and writes are
/// non-blocking, each client's pending output is capped (a client that does not read its
/// replies is dropped), lines are capped (an over-long line gets `lineTooLong()` and the
/// connection is closed), and so is the number of clients (one more gets `tooManyClients()`
/// and is closed). Idle connections cost nothing: no timers, only an epoll registration.
public final class ControlServer {
  /// The server's bounds.
  public struct Limits: Sendable {
    /// Concurrent connections served; more are told so and closed.
    public var maxClients = 512
    /// Longest request line in bytes, without its newline.
    public var maxLineBytes = 64 << 10
    /// Reply bytes queued for one slow client before it is dropped.
    public var maxPendingOutput = 1 << 20

    public init(
      maxClients: Int = 512, maxLineBytes: Int = 64 << 10, maxPendingOutput: Int = 1 << 20
    ) {
      self.maxClients = maxClients
      self.maxLineBytes = maxLineBytes
      self.maxPendingOutput = maxPendingOutput
    }
  }

  /// Answers one request line (without its newline or CR, raw bytes: decoding and
  /// validation are the protocol's job). The handler calls `responder.reply` exactly once,
  /// at once or later on the loop's thread (for a change that must reach the disk first);
  /// the connection's next request waits until then, so replies keep their order.
  public typealias Handler = (_ request: ArraySlice<UInt8>, _ responder: ControlResponder) -> Void

  public let listener: UnixListener
  public let limits: Limits
  private let loop: EventLoop
  private let handler: Handler
  private let lineTooLong: [UInt8]
  private let tooManyClients: [UInt8]
  private var connections: [Int32: Connection] = [:]
  // Held open so that when descriptors run out (EMFILE) a pending connection can still be
  // accepted and closed; otherwise the listener stays readable and the loop would spin.
  private var spare: FileDescriptor?

  /// The number of connected clients.
  public var clientCount: Int { connections.count }

  /// Starts accepting on `listener`'s socket; handlers run on `loop`'s thread.
  public init(
    listener: UnixListener, loop: EventLoop, limits: Limits = Limits(),
    handler: @escaping Handler,
    lineTooLong: [UInt8],
    tooManyClients: [UInt8]
  ) throws(SystemError) {
    self.listener = listener
    self.loop = loop
    self.limits = limits
    self.handler = handler
    self.lineTooLong = lineTooLong
    self.tooManyClients = tooManyClients
    spare = try? FileDescriptor.open("/dev/null", O_RDONLY)
    try loop.register(listener.descriptor, interest: .readable) { [weak self] _ in
      self?.acceptPending()
    }
  }

  /// Closes every connection and the listener (removing its socket file).
  public func close() {
    loop.unregister(listener.descriptor)
    for connection in Array(connections.values) { drop(connection) }
    listener.close()
    spare?.close()
  }

  private func acceptPending() {
    // Bounded so a connect storm cannot hold the loop; epoll reports the rest next round.
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
      guard connections.count < limits.maxClients else {
        refuse(client)
        continue
      }
      let connection = Connection(fd: client)
      connections[client.rawValue] = connection
      do throws(SystemError) {
        try loop.register(client, interest: .readable) { [weak self, weak connection] events in
          guard let self, let connection else { return }
          self.handle(events, on: connection)
        }
      } catch {
        connections[client.rawValue] = nil
        client.close()
      }
    }
  }

  private func shedOneConnection() {
    spare?.close()
    if let client = try? listener.accept() { refuse(client) }
    spare = try? FileDescriptor.open("/dev/null", O_RDONLY)
  }

  /// Tells a client it cannot be served now, without blocking, and closes it.
  private func refuse(_ client: FileDescriptor) {
    let line = tooManyClients + [UInt8(ascii: "\n")]
    _ = line.withUnsafeBytes {
      Glibc.send(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
    client.close()
  }

  private func handle(_ events: IOEvents, on connection: Connection) {
    if connection.draining {
      drain(connection)
      return
    }
    if events.contains(.readable) && connection.reading {
      readAvailable(connection)
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

  private func readAvailable(_ connection: Connection) {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    // A few reads per wake-up keep one chatty client from starving the others.
    for _ in 0..<8 {
      guard let n = receive(connection, into: &chunk) else { return }
      if n == 0 {
        // The client finished sending; a last line without newline still counts.
        connection.reading = false
        connection.endOfInput = true
        processLines(connection)
        return
      }
      connection.input += chunk[..<n]
      processLines(connection)
      if !connection.reading || connection.isDropped || connection.awaitingReply { return }
    }
  }

  /// Answers the complete lines buffered for `connection`, one at a time: a line whose
  /// reply is deferred holds the rest until it is answered.
  private func processLines(_ connection: Connection) {
    var start = 0
    let input = connection.input
    while !connection.isDropped, !connection.awaitingReply, !connection.refused {
      if let newline = input[max(start, connection.scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
        respond(to: input[start..<newline], on: connection)
        start = newline + 1
      } else if connection.endOfInput && start < input.count {
        respond(to: input[start...], on: connection)
        start = input.count
      } else {
        break
      }
    }
    guard !connection.isDropped else { return }
    connection.input.removeFirst(min(start, connection.input.count))
    connection.scanned = connection.awaitingReply ? 0 : connection.input.count
    if !connection.refused && connection.input.count > limits.maxLineBytes
      && connection.input.firstIndex(of: UInt8(ascii: "\n")) == nil
    {
      refuseLongLine(connection)
    }
    if connection.endOfInput && connection.input.isEmpty && !connection.awaitingReply {
      connection.closeWhenFlushed = true
    }
  }

  private func respond(to rawLine: ArraySlice<UInt8>, on connection: Connection) {
    var line = rawLine
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard line.count <= limits.maxLineBytes else {
      refuseLongLine(connection)
      return
    }
    connection.awaitingReply = true
    connection.inHandler = true
    handler(line, ControlResponder(server: self, connection: connection))
    connection.inHandler = false
  }

  /// A reply for `connection`'s oldest unanswered request.
  fileprivate func complete(_ connection: Connection, with reply: [UInt8]) {
    guard !connection.isDropped, connection.awaitingReply else { return }
    connection.awaitingReply = false
    enqueue(reply, on: connection)
    // A synchronous reply is flushed by the read path; a deferred one resumes the client.
    guard !connection.inHandler, !connection.isDropped else { return }
    processLines(connection)
    flush(connection)
  }

  private func refuseLongLine(_ connection: Connection) {
    connection.input.removeAll()
    connection.reading = false
    connection.refused = true
    connection.closeWhenFlushed = true
    connection.drainBeforeClose = true
    enqueue(lineTooLong, on: connection)
  }

  private func enqueue(_ reply: [UInt8], on connection: Connection) {
    connection.output += reply
    connection.output.append(UInt8(ascii: "\n"))
    if connection.output.count - connection.sent > limits.maxPendingOutput {
      drop(connection)
    }
  }

  private func flush(_ connection: Connection) {
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
      if connection.awaitingReply {
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
  private func receive(_ connection: Connection, into chunk: inout [UInt8]) -> Int? {
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

  private func drain(_ connection: Connection) {
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

  private func updateInterest(_ connection: Connection) {
    var interest: IOEvents = []
    // While a reply is deferred the client's further bytes stay in the kernel's buffer.
    if connection.reading && (!connection.awaitingReply || connection.draining) {
      interest.insert(.readable)
    }
    if connection.sent < connection.output.count { interest.insert(.writable) }
    guard interest != connection.interest else { return }
    do throws(SystemError) {
      try loop.modify(connection.fd, interest: interest)
      connection.interest = interest
    } catch {
      drop(connection)
    }
  }

  private func drop(_ connection: Connection) {
    guard !connection.isDropped else { return }
    connection.isDropped = true
    loop.unregister(connection.fd)
    connections[connection.fd.rawValue] = nil
    connection.fd.close()
  }
}

/// The way to answer one request: `reply` once, now or later, on the loop's thread.
/// Replying after the client has gone does nothing.
public final class ControlResponder {
  private weak var server: ControlServer?
  private weak var connection: Connection?
  private var replied = false

  fileprivate init(server: ControlServer, connection: Connection) {
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

/// One client's buffers and state.
private final class Connection {
  let fd: FileDescriptor
  var input: [UInt8] = []
  var scanned = 0  // input before this index holds no newline
  var output: [UInt8] = []
  var sent = 0  // output before this index is written
  var reading = true
  /// The client shut down its sending side.
  var endOfInput = false
  /// A request is with the handler and its reply has not come yet.
  var awaitingReply = false
  /// The handler is running for this connection (its reply, if given now, is flushed later).
  var inHandler = false
  /// An over-long line was refused: nothing more is answered.
  var refused = false
  var closeWhenFlushed = false
  /// After a refused line: drain the client's input before closing (see `flush`).
  var drainBeforeClose = false
  var draining = false
  var drained = 0
  var isDropped = false
  var interest: IOEvents = .readable

  init(fd: FileDescriptor) { self.fd = fd }
}
