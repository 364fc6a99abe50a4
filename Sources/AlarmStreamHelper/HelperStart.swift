import AlarmCore
import AlarmPlatform
import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// What runs first: the sandbox the process puts itself in, and the request line.
enum HelperStart {
  /// The client has this long to send its request line.
  static let requestLimit: Duration = .seconds(10)

  /// What reading the request gave.
  enum Request: Equatable {
    /// A well-formed request.
    case request(StreamWire.Request)
    /// A request that breaks the wire format, or none in time: the `problem` says why.
    case bad(String)
    /// The client closed before sending a whole line.
    case closed
  }

  /// Before anything is opened: no privileges can be gained by any exec from here on
  /// (PR_SET_NO_NEW_PRIVS), and no descriptor but 0, 1 and 2 stays open (a socket-activated
  /// unit or a careless parent may pass more).
  static func enterSandbox() {
    if cff_set_no_new_privs() != 0 {
      HelperLog.write("prctl(PR_SET_NO_NEW_PRIVS): " + SystemError.message(for: errno))
    }
    if cff_close_from(3) == 0 { return }
    // Before Linux 5.9: the descriptors /proc lists, collected first (closing while
    // reading the directory would close its own descriptor).
    guard let dir = opendir("/proc/self/fd") else {
      for fd in Int32(3)..<1024 { close(fd) }
      return
    }
    var open: [Int32] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let fd = Int32(name), fd > 2, fd != dirfd(dir) { open.append(fd) }
    }
    closedir(dir)
    for fd in open { close(fd) }
  }

  /// Reads the request line from `fd`: at most `StreamWire.maxRequestBytes`, within
  /// `requestLimit`; bytes after the newline are ignored.
  static func readRequest(from fd: Int32 = 0) -> Request {
    let deadline = Clock.monotonic.now() + requestLimit
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 512)
    while true {
      let left = deadline - Clock.monotonic.now()
      if left <= .zero {
        return .bad("no request line within \(requestLimit.components.seconds) s")
      }
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      let ready = (try? retryingEINTR("poll") { poll(&fds, 1, left.pollTimeout) }) ?? -1
      if ready < 0 { return .closed }
      if ready == 0 { continue }
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      if n <= 0 { return .closed }
      line += chunk[0..<n]
      if let end = line.firstIndex(of: UInt8(ascii: "\n")) {
        var text = line[..<end]
        if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
        guard end < StreamWire.maxRequestBytes else { return tooLong }
        switch StreamWire.Request.parse(String(decoding: text, as: UTF8.self)) {
        case .success(let request): return .request(request)
        case .failure(let error): return .bad("bad request: \(error.description)")
        }
      }
      if line.count >= StreamWire.maxRequestBytes { return tooLong }
    }
  }

  private static var tooLong: Request {
    .bad("bad request: the request line is longer than \(StreamWire.maxRequestBytes) bytes")
  }
}
