#if canImport(Glibc)
  import Glibc
#endif

/// A `sockaddr_un`: a filesystem path, or an abstract name written with a leading `@`.
public struct UnixSocketAddress: Sendable, CustomStringConvertible {
  /// The path as given (`@name` for the abstract namespace).
  public let path: String
  private let bytes: [UInt8]  // sun_path content, without a terminating NUL

  /// Fails with ENAMETOOLONG when the path does not fit `sun_path` (108 bytes with its NUL).
  public init(_ path: String) throws(SystemError) {
    var bytes = Array(path.utf8)
    if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
    let fits = bytes.first == 0 ? bytes.count <= capacity : bytes.count < capacity
    guard !bytes.isEmpty, fits else {
      throw SystemError(
        "socket address(\(path))", errno: bytes.isEmpty ? EINVAL : ENAMETOOLONG)
    }
    self.path = path
    self.bytes = bytes
  }

  public var description: String { path }

  /// Calls `body` with the address and its exact length (abstract names are not NUL-padded).
  public func withSockAddr<R, E: Error>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R
  ) throws(E) -> R {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
    }
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    let length = socklen_t(pathOffset + bytes.count + (bytes.first == 0 ? 0 : 1))
    return try withUnsafePointer(to: &addr) { (p) throws(E) -> R in
      try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(E) -> R in
        try body(sa, length)
      }
    }
  }
}

extension FileDescriptor {
  /// A new Unix socket (`SOCK_STREAM` or `SOCK_DGRAM`), O_CLOEXEC.
  public static func unixSocket(_ type: Int32, nonBlocking: Bool = false)
    throws(SystemError) -> FileDescriptor
  {
    let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
    let fd = try retryingEINTR("socket(AF_UNIX)") { socket(AF_UNIX, type | flags, 0) }
    return FileDescriptor(owning: fd)
  }

  /// connect(2) to a Unix socket address.
  public func connect(to address: UnixSocketAddress) throws(SystemError) {
    let fd = rawValue
    try address.withSockAddr { (sa, len) throws(SystemError) in
      _ = try retryingEINTR("connect(\(address))") { Glibc.connect(fd, sa, len) }
    }
  }

  /// bind(2) to a Unix socket address.
  public func bind(to address: UnixSocketAddress) throws(SystemError) {
    let fd = rawValue
    try address.withSockAddr { (sa, len) throws(SystemError) in
      _ = try retryingEINTR("bind(\(address))") { Glibc.bind(fd, sa, len) }
    }
  }

  /// sendto(2) one datagram to `address`.
  public func send(_ bytes: [UInt8], to address: UnixSocketAddress) throws(SystemError) {
    let fd = rawValue
    try address.withSockAddr { (sa, len) throws(SystemError) in
      let n = try retryingEINTR("sendto(\(address))") {
        bytes.withUnsafeBytes { raw in
          sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), sa, len)
        }
      }
      if n != bytes.count { throw SystemError("sendto(\(address))", errno: EMSGSIZE) }
    }
  }
}
