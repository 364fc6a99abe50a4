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

  /// Produces the reply line (without newline) for a request line (without newline or CR).
  public typealias Handler = (String) -> String

  public let listener: UnixListener
  public let limits: Limits
  private let loop: EventLoop
  private let handler: Handler
  private let lineTooLong: () -> String
  private let tooManyClients: () -> String
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
    lineTooLong: @escaping () -> String,
    tooManyClients: @escaping () -> String
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
        let line = Array((tooManyClients() + "\n").utf8)
        _ = line.withUnsafeBytes {
          Glibc.send(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        client.close()
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
    if let client = try? listener.accept() {
      let line = Array((tooManyClients() + "\n").utf8)
      _ = line.withUnsafeBytes {
        Glibc.send(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      client.close()
    }
    spare = try? FileDescriptor.open("/dev/null", O_RDONLY)
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
        if !connection.input.isEmpty { respond(to: connection.input[...], on: connection) }
        connection.input.removeAll()
        connection.reading = false
        connection.closeWhenFlushed = true
        return
      }
      connection.input += chunk[..<n]
      processLines(connection)
      if !connection.reading || connection.isDropped { return }
    }
  }

  private func processLines(_ connection: Connection) {
    var start = 0
    let input = connection.input
    while connection.reading, !connection.isDropped,
      let newline = input[max(start, connection.scanned)...].firstIndex(of: UInt8(ascii: "\n"))
    {
      respond(to: input[start..<newline], on: connection)
      start = newline + 1
    }
    connection.input.removeFirst(min(start, connection.input.count))
    connection.scanned = connection.input.count
    if connection.reading && connection.input.count > limits.maxLineBytes {
      refuseLongLine(connection)
    }
  }

  private func respond(to rawLine: ArraySlice<UInt8>, on connection: Connection) {
    var line = rawLine
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard line.count <= limits.maxLineBytes else {
      refuseLongLine(connection)
      return
    }
    enqueue(handler(String(decoding: line, as: UTF8.self)), on: connection)
  }

  private func refuseLongLine(_ connection: Connection) {
    connection.input.removeAll()
    connection.reading = false
    connection.closeWhenFlushed = true
    connection.drainBeforeClose = true
    enqueue(lineTooLong(), on: connection)
  }

  private func enqueue(_ reply: String, on connection: Connection) {
    connection.output += reply.utf8
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
    if connection.reading { interest.insert(.readable) }
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

/// One client's buffers and state.
private final class Connection {
  let fd: FileDescriptor
  var input: [UInt8] = []
  var scanned = 0  // input before this index holds no newline
  var output: [UInt8] = []
  var sent = 0  // output before this index is written
  var reading = true
  var closeWhenFlushed = false
  /// After a refused line: drain the client's input before closing (see `flush`).
  var drainBeforeClose = false
  var draining = false
  var drained = 0
  var isDropped = false
  var interest: IOEvents = .readable

  init(fd: FileDescriptor) { self.fd = fd }
}
