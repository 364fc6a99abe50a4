import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A control-socket client that sends exact bytes, for what the CLI would never send
/// (invalid UTF-8, pipelined floods). Blocking, with a receive timeout.
final class RawClient {
  let fd: Int32

  init(socket path: String, timeout: Double = 10) throws {
    fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ServiceTestError("socket: errno \(errno)") }
    var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
    }
    let ok = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    // No close here: a class that throws once initialised runs its deinit, which closes
    // it; a second close would hit whatever a test alongside opened under the number.
    guard ok == 0 else { throw ServiceTestError("connect(\(path)): errno \(errno)") }
  }

  /// Sends every byte.
  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      guard n > 0 else { throw ServiceTestError("send: errno \(errno)") }
      sent += n
    }
  }

  /// Reads until `lines` newlines have come (or end of file / timeout) and returns the text.
  func readLines(_ lines: Int) throws -> [String] {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while data.lazy.filter({ $0 == UInt8(ascii: "\n") }).count < lines {
      let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
      guard n > 0 else { break }
      data += chunk[..<n]
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  deinit { Glibc.close(fd) }
}
