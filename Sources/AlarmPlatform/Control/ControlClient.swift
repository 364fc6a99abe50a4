import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// Why a request to the running service failed.
public enum ControlClientError: Error, Equatable, CustomStringConvertible {
  /// No socket file, or nobody listening on it: the service is not running.
  case notRunning(socket: String, reason: String)
  /// The socket exists but this user may not connect to it.
  case permissionDenied(socket: String)
  /// No complete reply line within the timeout.
  case timedOut(socket: String)
  /// The service closed the connection without a reply line.
  case noReply(socket: String)
  /// Anything else the system reported.
  case system(SystemError)

  public var description: String {
    switch self {
    case .notRunning(let socket, let reason):
      "alarmclock is not running (\(reason): \(socket))"
    case .permissionDenied(let socket):
      "permission denied on \(socket): run as the service's user or a member of the socket's"
        + " group"
    case .timedOut(let socket): "no reply from alarmclock within the timeout (\(socket))"
    case .noReply(let socket): "alarmclock closed the connection without replying (\(socket))"
    case .system(let error): error.description
    }
  }

  /// The error for a failed connect(2).
  public static func connectFailure(_ error: SystemError, socket: String) -> ControlClientError {
    switch error.errno {
    case ENOENT: .notRunning(socket: socket, reason: "no socket at")
    case ECONNREFUSED: .notRunning(socket: socket, reason: "nothing listens on")
    case EACCES, EPERM: .permissionDenied(socket: socket)
    case EAGAIN: .timedOut(socket: socket)
    default: .system(error)
    }
  }
}

/// One request, one reply, over the service's control socket.
public enum ControlClient {
  /// Replies longer than this are refused rather than buffered without bound.
  public static let maxReplyBytes = 16 << 20

  /// Connects to `socketPath`, sends `line` (a newline is added) and returns the first reply
  /// line without its newline. The whole exchange must finish within `timeout`.
  public static func request(_ line: String, socketPath: String, timeout: Duration = .seconds(5))
    throws(ControlClientError) -> String
  {
    let deadline = TimerFd.Clock.monotonic.now() + timeout
    let socket: FileDescriptor
    do throws(SystemError) {
      socket = try FileDescriptor.unixSocket(SOCK_STREAM_VALUE)
      // A full backlog makes connect(2) sleep; bound it by the timeout.
      var tv = timeval(
        tv_sec: Int(timeout.components.seconds),
        tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
      let fd = socket.rawValue
      try retryingEINTR("setsockopt(SO_SNDTIMEO)") {
        setsockopt(fd, SOL_SOCKET, cshim_SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
      }
    } catch {
      throw .system(error)
    }
    defer { socket.close() }
    do throws(SystemError) {
      try socket.connect(to: try UnixSocketAddress(socketPath))
    } catch {
      throw ControlClientError.connectFailure(error, socket: socketPath)
    }
    do throws(SystemError) {
      try socket.setNonBlocking()
    } catch {
      throw .system(error)
    }
    try send(Array((line + "\n").utf8), on: socket, path: socketPath, deadline: deadline)
    return try receiveLine(on: socket, path: socketPath, deadline: deadline)
  }

  private static func send(
    _ bytes: [UInt8], on socket: FileDescriptor, path: String, deadline: Duration
  ) throws(ControlClientError) {
    var done = 0
    while done < bytes.count {
      try wait(for: Int16(POLLOUT), on: socket, path: path, deadline: deadline)
      let fd = socket.rawValue
      do throws(SystemError) {
        done += try retryingEINTR("send(\(path))") {
          bytes.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL))
          }
        }
      } catch  where error.isWouldBlock {
        continue
      } catch  where error.errno == EPIPE || error.errno == ECONNRESET {
        throw .noReply(socket: path)
      } catch {
        throw .system(error)
      }
    }
  }

  private static func receiveLine(on socket: FileDescriptor, path: String, deadline: Duration)
    throws(ControlClientError) -> String
  {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      try wait(for: Int16(POLLIN), on: socket, path: path, deadline: deadline)
      let fd = socket.rawValue
      let n: Int
      do throws(SystemError) {
        n = try retryingEINTR("recv(\(path))") {
          chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        }
      } catch  where error.isWouldBlock {
        continue
      } catch  where error.errno == ECONNRESET {
        throw .noReply(socket: path)
      } catch {
        throw .system(error)
      }
      if n == 0 { throw .noReply(socket: path) }
      let start = received.count
      received += chunk[..<n]
      if let newline = received[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > 0 && received[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: received[..<end], as: UTF8.self)
      }
      if received.count > maxReplyBytes {
        throw .system(
          SystemError("recv(\(path))", errno: EMSGSIZE, detail: "reply line too long"))
      }
    }
  }

  private static func wait(
    for events: Int16, on socket: FileDescriptor, path: String, deadline: Duration
  ) throws(ControlClientError) {
    while true {
      let left = deadline - TimerFd.Clock.monotonic.now()
      if left <= .zero { throw .timedOut(socket: path) }
      let (seconds, atto) = left.components
      let ms = Int32(clamping: seconds * 1000 + atto / 1_000_000_000_000_000 + 1)
      var pfd = pollfd(fd: socket.rawValue, events: events, revents: 0)
      let n = Glibc.poll(&pfd, 1, ms)
      if n < 0 {
        if errno == EINTR { continue }
        throw .system(SystemError.current("poll(\(path))"))
      }
      if n > 0 { return }
    }
  }
}
