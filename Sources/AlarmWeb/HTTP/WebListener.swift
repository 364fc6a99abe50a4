import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Where `alarmclock web` listens: `HOST:PORT` with an IPv4 address, `[IPv6]`, or
/// `localhost` (127.0.0.1).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The address as given (`localhost` already resolved).
  public var host: String
  public var port: UInt16
  public var isIPv6: Bool

  /// The default when neither `--listen` nor `[web] listen` says otherwise.
  public static let fallback = ListenAddress(host: "127.0.0.1", port: 8080, isIPv6: false)

  public init(host: String, port: UInt16, isIPv6: Bool) {
    self.host = host
    self.port = port
    self.isIPv6 = isIPv6
  }

  /// Parses `HOST:PORT`; nil with the reason in `error` when it is not one.
  public static func parse(_ text: String) -> Result<ListenAddress, ListenAddressError> {
    let expectation =
      "HOST:PORT with an IP address, e.g. 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, not '\(text)'"
    guard let colon = text.lastIndex(of: ":") else { return .failure(.init(expectation)) }
    var host = String(text[..<colon])
    guard let port = UInt16(text[text.index(after: colon)...]) else {
      return .failure(.init(expectation))
    }
    var v6 = false
    if host.hasPrefix("[") && host.hasSuffix("]") {
      host = String(host.dropFirst().dropLast())
      v6 = true
    }
    if host == "localhost" { host = "127.0.0.1" }
    let family = v6 ? AF_INET6 : AF_INET
    var buffer = [UInt8](repeating: 0, count: 16)
    guard inet_pton(family, host, &buffer) == 1 else { return .failure(.init(expectation)) }
    return .success(ListenAddress(host: host, port: port, isIPv6: v6))
  }

  public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// The URL of the page at this address (a wildcard address shown as loopback).
  public var url: String {
    let shown = host == "0.0.0.0" ? "127.0.0.1" : (host == "::" ? "::1" : host)
    return isIPv6 ? "http://[\(shown)]:\(port)" : "http://\(shown):\(port)"
  }
}

/// Why a `--listen` value is not an address.
public struct ListenAddressError: Error, Sendable, CustomStringConvertible {
  /// What was expected instead.
  public var expectation: String
  init(_ expectation: String) { self.expectation = expectation }
  public var description: String { expectation }
}

/// The listening socket: opened for an address, or handed over by systemd.
public enum WebListener {
  /// The socket systemd passed (`LISTEN_FDS=1` for this process: fd 3), or nil.
  public static func fromSystemd(environment env: [String: String]) -> Int32? {
    guard let pid = env["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
      let count = env["LISTEN_FDS"].flatMap(Int.init), count >= 1
    else { return nil }
    return 3
  }

  /// The port a listening socket is bound to (port 0 asks the kernel for a free one).
  public static func port(of fd: Int32) -> UInt16? {
    var sa = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let ok = withUnsafeMutablePointer(to: &sa) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard ok == 0 else { return nil }
    let family = sa.ss_family
    return withUnsafePointer(to: &sa) { p in
      if family == sa_family_t(AF_INET6) {
        return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin6_port)
        }
      }
      return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        UInt16(bigEndian: $0.pointee.sin_port)
      }
    }
  }

  /// A non-blocking, close-on-exec TCP socket listening on `address`.
  public static func open(_ address: ListenAddress) throws(SystemError) -> Int32 {
    let family = address.isIPv6 ? AF_INET6 : AF_INET
    let fd = try retryingEINTR("socket") {
      socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    let owned = FileDescriptor(owning: fd)
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let where_ = address.description
    if address.isIPv6 {
      var sa = sockaddr_in6()
      sa.sin6_family = sa_family_t(AF_INET6)
      sa.sin6_port = address.port.bigEndian
      _ = inet_pton(AF_INET6, address.host, &sa.sin6_addr)
      _ = try withUnsafePointer(to: &sa) { p throws(SystemError) in
        try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sp throws(SystemError) in
          try retryingEINTR("bind(\(where_))") {
            bind(fd, sp, socklen_t(MemoryLayout<sockaddr_in6>.size))
          }
        }
      }
    } else {
      var sa = sockaddr_in()
      sa.sin_family = sa_family_t(AF_INET)
      sa.sin_port = address.port.bigEndian
      _ = inet_pton(AF_INET, address.host, &sa.sin_addr)
      _ = try withUnsafePointer(to: &sa) { p throws(SystemError) in
        try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sp throws(SystemError) in
          try retryingEINTR("bind(\(where_))") {
            bind(fd, sp, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        }
      }
    }
    try retryingEINTR("listen(\(where_))") { listen(fd, 128) }
    // A copy of its own for WebServer, which accepts on it (and closes it when it stops).
    return try retryingEINTR("fcntl(F_DUPFD_CLOEXEC)") { fcntl(owned.rawValue, F_DUPFD_CLOEXEC, 3) }
  }
}
