import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Control-socket connections that pipeline one request without end and read the replies,
/// on a few threads of their own (issue 15's flood), until `stop()`.
final class FloodClients: @unchecked Sendable {
  private let stopping = Atomic<Bool>(false)
  private let replies = Atomic<Int>(0)
  private let finished = DispatchSemaphore(value: 0)
  private let threadCount: Int

  /// Connects `connections` clients (throws if one cannot) and starts flooding.
  init(socket: String, connections: Int, request: String, threads: Int = 4) throws {
    var fds: [Int32] = []
    for _ in 0..<connections {
      let client = try RawClient(socket: socket)
      let fd = dup(client.fd)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      fds.append(fd)
    }
    threadCount = min(threads, max(1, connections))
    let payload = Array(String(repeating: request + "\n", count: 64).utf8)
    for t in 0..<threadCount {
      let mine = stride(from: t, to: fds.count, by: threadCount).map { fds[$0] }
      Thread { [self] in
        self.pump(mine, payload)
        self.finished.signal()
      }.start()
    }
  }

  /// Replies received so far, over all connections.
  var replyCount: Int { replies.load(ordering: .relaxed) }

  /// Ends the flood: every thread stops and closes its connections before this returns.
  func stop() {
    guard !stopping.exchange(true, ordering: .relaxed) else { return }
    for _ in 0..<threadCount { finished.wait() }
  }

  deinit { stop() }

  private func pump(_ fds: [Int32], _ payload: [UInt8]) {
    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN | POLLOUT), revents: 0) }
    var offsets = [Int](repeating: 0, count: fds.count)
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while !stopping.load(ordering: .relaxed) {
      guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
      for i in polls.indices where polls[i].fd >= 0 && polls[i].revents != 0 {
        let fd = polls[i].fd
        if polls[i].revents & Int16(POLLOUT) != 0 {
          let off = offsets[i]
          let n = payload.withUnsafeBytes {
            send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
          }
          if n > 0 { offsets[i] = (off + n) % payload.count }
        }
        if polls[i].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
          if n > 0 {
            let lines = chunk[..<n].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            replies.add(lines, ordering: .relaxed)
          } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
            polls[i].fd = -1  // gone: poll(2) skips negative descriptors
          }
        }
      }
    }
    for fd in fds { close(fd) }
  }
}
