import AlarmPlatform
import Glibc

/// A `ControlServer` on a loop driven turn by turn from the test's thread, and raw
/// non-blocking clients for it.
final class ControlFixture {
  let directory = InputFixture.tempDirectory()
  let loop: EventLoop
  var server: ControlServer!
  var path: String { directory + "/control.sock" }

  /// `handler` answers each request line (as a String) synchronously.
  init(limits: ControlServer.Limits = .init(), handler: @escaping (String) -> String) throws {
    loop = try EventLoop()
    let listener = try UnixListener(path: directory + "/control.sock")
    server = try ControlServer(
      listener: listener, loop: loop, limits: limits,
      handler: { line, responder in
        responder.reply(Array(handler(String(decoding: line, as: UTF8.self)).utf8))
      },
      lineTooLong: Array("too-long".utf8), tooManyClients: Array("too-many".utf8),
      evicted: Array("evicted".utf8), idleTimedOut: Array("idle".utf8))
  }

  deinit {
    server.close()
    InputFixture.removeTree(directory)
  }

  func connect() throws -> ControlTestClient {
    let fd = try FileDescriptor.unixSocket(Int32(SOCK_STREAM.rawValue), nonBlocking: true)
    try fd.connect(to: UnixSocketAddress(path))
    return ControlTestClient(fd: fd)
  }

  /// Runs loop rounds until `condition` holds; false after `limit`.
  func turn(upTo limit: Duration = .seconds(10), until condition: () -> Bool) throws -> Bool {
    let end = ContinuousClock.now + limit
    while !condition() {
      guard ContinuousClock.now < end else { return false }
      try loop.runOnce(timeout: .milliseconds(20))
    }
    return true
  }
}

/// One client connection: writes without blocking, collects reply lines.
final class ControlTestClient {
  let fd: FileDescriptor
  private var buffer: [UInt8] = []
  private(set) var lines: [String] = []
  private(set) var closed = false

  init(fd: FileDescriptor) { self.fd = fd }

  /// Writes as much of `text` as the socket takes now; returns the bytes written.
  @discardableResult
  func send(_ text: String) -> Int {
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBytes {
      Glibc.send(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
    return max(0, n)
  }

  /// Reads what has arrived; returns the reply lines so far.
  @discardableResult
  func poll() -> [String] {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let n = chunk.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
      if n == 0 { closed = true }
      guard n > 0 else { break }
      buffer += chunk[..<n]
    }
    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
      buffer.removeFirst(newline + 1)
    }
    return lines
  }
}

/// Keeps the CPU busy for `duration` (a handler doing expensive work).
func busy(for duration: Duration) {
  let end = ContinuousClock.now + duration
  while ContinuousClock.now < end {}
}
