import AudioTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A running `alarmclock web` on a free loopback port, in a temp dir of its own (config,
/// token file); its log in a file the test reads.
final class WebRunner {
  let dir: TempDir
  let process = Process()
  var configPath: String { dir.file("alarms.toml") }
  var tokenPath: String { dir.file("web-token") }
  var logPath: String { dir.file("web.log") }
  private(set) var port: UInt16 = 0
  private(set) var token = ""

  /// Writes `config` (unless nil) and starts the web process talking to `socket`.
  init(dir: TempDir, config: String?, socket: String, extra: [String] = []) throws {
    self.dir = dir
    if let config { try config.write(toFile: configPath, atomically: true, encoding: .utf8) }
    process.executableURL = URL(fileURLWithPath: CLI.binary)
    process.arguments =
      [
        "web", "--config", configPath, "--listen", "127.0.0.1:0", "--socket", socket,
        "--state-dir", dir.file("state"),
      ] + extra
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = "UTC"
    env["LANG"] = "C.UTF-8"
    env["LC_ALL"] = nil
    env["LISTEN_FDS"] = nil
    process.environment = env
    FileManager.default.createFile(atPath: logPath, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    process.standardError = handle
    process.standardOutput = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try waitFor("the web process to listen", timeout: 20) {
      log.contains("serving on") || !process.isRunning
    }
    guard process.isRunning,
      let line = log.split(separator: "\n").first(where: { $0.contains("serving on") }),
      let p = UInt16(line.split(separator: ":").last?.dropLast() ?? "")
    else { throw ServiceTestError("alarmclock web did not start:\n\(log)") }
    port = p
    token = try String(contentsOfFile: tokenPath, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  var config: String { (try? String(contentsOfFile: configPath, encoding: .utf8)) ?? "" }

  /// A new keep-alive connection.
  func connect() throws -> HTTPConnection { try HTTPConnection(port: port) }

  /// One request on a connection of its own, with the bearer token unless `auth` is false.
  func request(
    _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:],
    auth: Bool = true
  ) throws -> HTTPReply {
    var h = headers
    if auth { h["Authorization"] = "Bearer \(token)" }
    return try connect().send(method, path, body: body.map { Array($0.utf8) }, headers: h)
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
    }
  }
}

/// An HTTP/1.1 response.
struct HTTPReply {
  var status: Int
  var headers: [String: String]
  var body: String
  func header(_ name: String) -> String? { headers[name.lowercased()] }
  /// The body parsed as JSON.
  var json: Any? {
    try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed])
  }
  /// `error.code` of an API error.
  var errorCode: String? {
    ((json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
  }
  var errorMessage: String? {
    ((json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
  }
}

/// A blocking TCP client speaking HTTP/1.1 with keep-alive, byte-exact (no URL session
/// behind the test's back).
final class HTTPConnection {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(port: UInt16, timeout: Int = 20) throws {
    fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var tv = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    // connect(2) waits at most this long too (a full listen queue drops the handshake).
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    guard Self.connectLoopback(fd, port: port) == 0 else {
      throw ServiceTestError("connect to port \(port): errno \(errno)")
    }
  }

  /// connect(2) to 127.0.0.1:`port`; its result.
  static func connectLoopback(_ fd: Int32, port: UInt16) -> Int32 {
    withLoopback(host: 1, port: port) { Glibc.connect(fd, $0, $1) }
  }

  /// `body` with the address 127.0.0.`host`:`port` (Linux routes all of 127.0.0.0/8 to lo).
  static func withLoopback(
    host: UInt8, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    var sa = sockaddr_in()
    sa.sin_family = sa_family_t(AF_INET)
    sa.sin_port = port.bigEndian
    sa.sin_addr.s_addr = (UInt32(0x7f00_0000) | UInt32(host)).bigEndian
    return withUnsafePointer(to: &sa) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  deinit { Glibc.close(fd) }

  func write(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      guard n > 0 else { throw ServiceTestError("send: errno \(errno)") }
      sent += n
    }
  }

  /// Sends a request and reads its reply.
  func send(
    _ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]
  ) throws -> HTTPReply {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (k, v) in headers { head += "\(k): \(v)\r\n" }
    if let body { head += "Content-Length: \(body.count)\r\n" }
    try write(Array((head + "\r\n").utf8) + (body ?? []))
    return try readReply(head: method == "HEAD")
  }

  /// True when the server closed the connection (reads end of file).
  func isClosed() -> Bool {
    var byte: UInt8 = 0
    return Glibc.recv(fd, &byte, 1, 0) == 0
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { throw ServiceTestError("connection closed or timed out (errno \(errno))") }
    buffer += chunk[..<n]
  }

  func readReply(head: Bool = false) throws -> HTTPReply {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var end: Int?
    while end == nil {
      if buffer.count >= 4 {
        end = (0...(buffer.count - 4)).first { Array(buffer[$0..<($0 + 4)]) == separator }
      }
      if end == nil { try fill() }
    }
    let lines = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
    buffer.removeFirst(end! + 4)
    let status = Int(lines[0].split(separator: " ")[1]) ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    let length = head ? 0 : Int(headers["content-length"] ?? "0") ?? 0
    while buffer.count < length { try fill() }
    let body = String(decoding: buffer[..<length], as: UTF8.self)
    buffer.removeFirst(length)
    return HTTPReply(status: status, headers: headers, body: body)
  }
}

/// A loopback TCP socket bound to port 0, to learn a free port.
final class WebListenerProbe {
  let fd: Int32
  let port: UInt16

  init() throws {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.fd = fd
    var sa = sockaddr_in()
    sa.sin_family = sa_family_t(AF_INET)
    sa.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &sa) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard ok else { throw ServiceTestError("bind: errno \(errno)") }
    port = UInt16(bigEndian: sa.sin_port)
  }

  func close() { Glibc.close(fd) }
}
