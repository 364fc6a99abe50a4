import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real Icecast server (Debian's `icecast2`) on loopback, fed by a real source: ffmpeg
/// encoding a sine of `frequency` Hz to MP3 in real time. What a radio station is to the
/// stream tests; `kill()` is the station's server dying mid-ring.
public final class IcecastServer {
  public let port: Int
  public let mount = "/live.mp3"
  public let frequency: Double
  private let dir: String
  private var server: Process?
  private var source: Process?

  /// Whether `icecast2` and `ffmpeg` are installed (scripts/deps test installs both).
  public static var available: Bool {
    let tools: [String] = ["/usr/bin/icecast2", "/usr/bin/ffmpeg"]
    return tools.allSatisfy { access($0, X_OK) == 0 }
  }

  /// The station's address.
  public var url: String { "http://127.0.0.1:\(port)\(mount)" }

  /// Starts the server and its source; returns once the mount delivers audio.
  public init(directory: String, frequency: Double = 660) throws {
    self.frequency = frequency
    dir = directory + "/icecast"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    chmod(dir, 0o777)  // as root, icecast2 changes to nobody (its logs go to its stderr)
    port = try FreePort.loopback()
    try start()
  }

  deinit { kill() }

  /// (Re)starts server and source; waits until a listener gets audio.
  public func start() throws {
    let config = dir + "/icecast.xml"
    let owner =
      getuid() == 0
      ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : ""
    // The template is shared with bench/stream: one Icecast config for both.
    let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/stream/icecast.xml")
    try String(contentsOf: template, encoding: .utf8)
      .replacingOccurrences(of: "{port}", with: "\(port)")
      .replacingOccurrences(of: "{dir}", with: dir)
      .replacingOccurrences(of: "{owner}", with: owner)
      .write(toFile: config, atomically: true, encoding: .utf8)
    server = try Self.spawn("/usr/bin/icecast2", ["-c", config], log: dir + "/icecast.out")
    try waitUntil(timeout: 10, "icecast2 listening on \(port)") { FreePort.isListening(port) }
    source = try Self.spawn(
      "/usr/bin/ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
        "sine=frequency=\(Int(frequency)):sample_rate=44100", "-c:a", "libmp3lame", "-b:a",
        "128k", "-content_type", "audio/mpeg", "-f", "mp3",
        "icecast://source:alarmsrc@127.0.0.1:\(port)\(mount)",
      ], log: dir + "/source.out")
    do {
      try waitUntil(timeout: 15, "the mount \(mount) delivering audio") { self.delivers() }
    } catch {
      let logs = ["icecast.out", "source.out"].map { name in
        name + ": " + ((try? String(contentsOfFile: dir + "/" + name, encoding: .utf8)) ?? "")
      }
      throw WaitError(what: "\(error); " + logs.joined(separator: "\n"), seconds: 15)
    }
  }

  /// Kills server and source at once (SIGKILL): the station gone mid-ring.
  public func kill() {
    for p in [source, server].compactMap({ $0 }) where p.isRunning {
      Glibc.kill(p.processIdentifier, SIGKILL)
      p.waitUntilExit()
    }
    source = nil
    server = nil
  }

  /// Sends `signal` to the server (SIGSTOP: a server that stops answering, its connections
  /// open; SIGCONT: it answers again).
  public func signal(_ signal: Int32) {
    if let p = server, p.isRunning { Glibc.kill(p.processIdentifier, signal) }
  }

  /// Whether a GET of the mount returns audio bytes now.
  private func delivers() -> Bool {
    let r = try? Tool.run([
      "curl", "-s", "-m", "2", "-r", "0-2000", "-o", "/dev/null", "-w", "%{size_download}", url,
    ])
    return Int(r?.out ?? "") ?? 0 > 1000
  }

  private static func spawn(_ path: String, _ args: [String], log: String) throws -> Process {
    FileManager.default.createFile(atPath: log, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = out
    p.standardError = out
    try p.run()
    return p
  }
}

/// Waits for `condition`, polling every 50 ms; throws with `what` after `timeout` s.
public func waitUntil(timeout: Double, _ what: String, _ condition: () -> Bool) throws {
  let end = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() > end { throw WaitError(what: what, seconds: timeout) }
    usleep(50_000)
  }
}

public struct WaitError: Error, CustomStringConvertible {
  public var what: String
  public var seconds: Double
  public var description: String { "gave up after \(seconds) s waiting for \(what)" }
}

/// Loopback TCP ports for test servers.
public enum FreePort {
  /// A port nothing listens on now (the kernel's pick; free until someone binds it).
  public static func loopback() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &addr) { p in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
        bind(fd, sa, len) == 0 && getsockname(fd, sa, &len) == 0
      }
    }
    guard ok else { throw WaitError(what: "a free port", seconds: 0) }
    return Int(UInt16(bigEndian: addr.sin_port))
  }

  /// Whether something accepts connections on 127.0.0.1:`port`.
  public static func isListening(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &addr) { p in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
        connect(fd, sa, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
