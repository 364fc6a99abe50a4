import AlarmCore
import AudioTestSupport
import Foundation

/// One run of the built `alarmclock-stream`, connected the way a terminal's service
/// connects it: a socketpair as its fd 0 and fd 1. Collects the frames it sends, with the
/// time each arrived.
final class HelperRun {
  /// The executable built beside this test bundle.
  static let binary = BuiltProduct.path("alarmclock-stream")

  let rate: Int
  let channels: Int
  let process: Process
  private var socket: Int32
  private var decoder = StreamFrameDecoder()
  private let start = ContinuousClock.now
  /// Every frame but PCM, with its arrival (seconds since the start).
  private(set) var messages: [(at: Double, message: StreamWire.Message)] = []
  /// The PCM received, interleaved.
  private(set) var pcm: [Int16] = []
  /// When the first PCM frame arrived.
  private(set) var firstPCM: Double?
  /// The helper closed the connection.
  private(set) var ended = false
  /// Where the helper's stderr goes.
  private let logFile: String

  /// Starts the helper and sends `line` (a request line, newline included).
  init(line: String, rate: Int = 48_000, channels: Int = 2) throws {
    self.rate = rate
    self.channels = channels
    var pair: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
    else { throw POSIXError(.EMFILE) }
    socket = pair[0]
    let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
    process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.standardInput = theirs
    process.standardOutput = theirs
    logFile = NSTemporaryDirectory() + "alarmclock-stream-\(UUID().uuidString).log"
    _ = FileManager.default.createFile(atPath: logFile, contents: nil)
    process.standardError = FileHandle(forWritingAtPath: logFile)
    try process.run()
    try theirs.close()
    _ = line.utf8CString.withUnsafeBytes { send(socket, $0.baseAddress, $0.count - 1, 0) }
  }

  /// Starts the helper on `url`.
  convenience init(url: String, rate: Int = 48_000, channels: Int = 2, loop: Bool = true) throws {
    try self.init(
      line: StreamWire.Request(url: url, rate: rate, channels: channels, loop: loop).line,
      rate: rate, channels: channels)
  }

  deinit {
    close()
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: logFile)
  }

  /// What the helper wrote to stderr so far.
  var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

  /// Seconds since the start.
  var elapsed: Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }

  /// Closes the test's end of the connection (the client leaving).
  func close() {
    if socket >= 0 { Glibc.close(socket) }
    socket = -1
  }

  /// Reads frames until `done` holds, the helper ends, or `timeout` seconds pass; returns
  /// whether `done` held.
  @discardableResult
  func read(timeout: Double, until done: (HelperRun) -> Bool) throws -> Bool {
    let deadline = elapsed + timeout
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while !done(self) {
      if ended || socket < 0 { return false }
      let left = deadline - elapsed
      if left <= 0 { return false }
      var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
      if poll(&fds, 1, Int32(min(left, 0.1) * 1000) + 1) <= 0 { continue }
      let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if n <= 0 {
        ended = true
        continue
      }
      chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
      while let message = try decoder.next() { take(message) }
    }
    return true
  }

  private func take(_ message: StreamWire.Message) {
    guard message.kind == .pcm else {
      messages.append((elapsed, message))
      return
    }
    if firstPCM == nil { firstPCM = elapsed }
    message.payload.withUnsafeBytes { raw in
      for i in 0..<(raw.count / 2) {
        pcm.append(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 2, as: Int16.self)))
      }
    }
  }

  /// The texts of the frames of `kind`.
  func texts(_ kind: StreamWire.Kind) -> [String] {
    messages.filter { $0.message.kind == kind }.map(\.message.text)
  }

  /// The `ready` frame's information.
  var ready: StreamWire.ReadyInfo? { texts(.ready).first.flatMap(StreamWire.ReadyInfo.parse) }

  /// The `problem` frame's text and arrival.
  var problem: (text: String, at: Double)? {
    messages.first { $0.message.kind == .problem }.map { ($0.message.text, $0.at) }
  }

  /// Seconds of PCM received.
  var pcmSeconds: Double { Double(pcm.count / channels) / Double(rate) }

  /// The first channel as floats in [-1, 1].
  var firstChannel: [Float] {
    stride(from: 0, to: pcm.count, by: channels).map { Float(pcm[$0]) / 32768 }
  }

  /// Whether the process has exited within `timeout` seconds.
  func exits(within timeout: Double) -> Bool {
    let deadline = elapsed + timeout
    while process.isRunning && elapsed < deadline { usleep(10_000) }
    return !process.isRunning
  }

  /// The helper's resident memory now (VmRSS, KiB), or nil when it has exited.
  var residentKiB: Int? {
    guard
      let status = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
    else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }
}
