import AlarmAudio
import AlarmCore
import AlarmPlatform
import CShim
import Glibc
import Testing

@testable import AlarmService

/// The wall clock the service reads, set by the test.
final class TestClock: Sendable {
  private let value: Locked<Instant>
  init(_ start: Instant) { value = Locked(start) }
  var now: Instant {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
  var serviceClock: ServiceClock { ServiceClock(now: { [self] in self.now }) }
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// One service in a temp directory, driven in-process: the test turns the loop
/// (`turn(until:)`), moves the clock and fires the realtime timer at the planned instant
/// instead of waiting for it. Real config file, state dir, control socket and FIFOs; the
/// audio goes to the ALSA "null" device, so nothing needs PulseAudio.
final class ServiceHarness {
  let dir: String
  let clock: TestClock
  let service: Service
  private let logFD: Int32
  /// The ringer's events in order.
  private(set) var events: [RingerEvent] = []

  var logPath: String { dir + "/service.log" }
  var configPath: String { dir + "/alarms.toml" }
  var stateDir: String { dir + "/state" }
  var statePath: String { stateDir + "/state.json" }
  var socket: String { dir + "/control.sock" }

  /// 2040-01-02 (a Monday) at `h:m:s` UTC: far enough ahead that the real timer never
  /// fires on its own.
  static func at(_ h: Int, _ m: Int, _ s: Int = 0) -> Instant {
    let day = Int64(LocalDate(year: 2040, month: 1, day: 2).daysSinceEpoch)
    return Instant(seconds: day * 86_400 + Int64(h * 3600 + m * 60 + s))
  }

  static func config(_ alarms: String, extra: String = "") -> String {
    """
    [settings]
    timezone = "UTC"

    [audio]
    device = "null"

    [defaults]
    ramp = "0s"
    snooze = "3s"
    ring_for = "30s"
    \(extra)
    \(alarms)
    """
  }

  static func alarm(_ id: String, _ time: String) -> String {
    "\n[[alarm]]\nid = \"\(id)\"\ntime = \"\(time)\"\ndays = \"daily\"\n"
  }

  static func tempDirectory() -> String {
    var template = Array("/tmp/alarmservice-XXXXXX".utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: p!)
  }

  /// Writes `config` and the files `prepare` adds, then makes and starts the service.
  init(
    config: String, at start: Instant, dir: String = ServiceHarness.tempDirectory(),
    options adjust: (inout ServiceOptions) -> Void = { _ in },
    prepare: (ServiceHarness.Type, String) throws -> Void = { _, _ in }
  ) throws {
    self.dir = dir
    clock = TestClock(start)
    try Self.write(config, to: dir + "/alarms.toml")
    try prepare(ServiceHarness.self, dir)
    logFD = open(dir + "/service.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    var options = ServiceOptions(
      configPath: dir + "/alarms.toml", stateDir: dir + "/state", socket: dir + "/control.sock",
      environment: ["TZ": "UTC"])
    // In-process, a real-time playback thread would outrun this (normal-priority) test
    // thread on a busy machine; the policy itself is tested on the binary
    // (ServicePriorityTests).
    options.realtime = false
    adjust(&options)
    let log = Logger(fd: logFD, environment: Environment([:]), minimumLevel: .debug)
    service = try Service(options: options, log: log, clock: clock.serviceClock)
    service.ringerEvents = { [unowned self] in self.events.append($0) }
    try service.start()
  }

  deinit {
    service.shutDown()
    close(logFD)
    _ = system("rm -rf '\(dir)'")
  }

  static func write(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw HarnessError("open \(path): errno \(errno)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count
    else { throw HarnessError("write \(path): errno \(errno)") }
  }

  /// The state file as decoded from disk.
  func savedState() throws -> ServiceState {
    try StateCodec.decode(try FileSystem.readFile(statePath))
  }

  var log: String {
    (try? FileSystem.readText(logPath)) ?? ""
  }

  /// Turns the loop until `condition` holds (true); throws `HarnessTimeout` after
  /// `timeout` seconds, so a test cannot forget to check.
  @discardableResult
  func turn(timeout: Double = 10, until condition: () -> Bool) throws -> Bool {
    let deadline = TimerFd.Clock.monotonic.now() + .milliseconds(Int64(timeout * 1000))
    while !condition() {
      if TimerFd.Clock.monotonic.now() > deadline {
        throw HarnessTimeout(seconds: timeout, log: log)
      }
      try service.runOnce(timeout: .milliseconds(20))
    }
    return true
  }

  /// The realtime timer's planned deadline.
  var plan: WakePlan { service.wakePlan! }

  /// Moves the clock to the planned deadline (`late` after it: a real timerfd wakes a
  /// moment late) and delivers the expiry, as the timerfd would.
  func fireTimer(late: Duration = .zero) {
    clock.now = plan.deadline + late
    service.timeReached(.expired(1))
  }

  func ringerSaw(_ match: (RingerEvent) -> Bool) -> Bool { events.contains(where: match) }

  /// Sends one request line on a new connection and turns the loop until its reply.
  func request(_ line: String) throws -> String {
    let client = try RawClient(socket)
    try client.send(line + "\n")
    var reply: String?
    try turn {
      reply = client.receiveLine()
      return reply != nil
    }
    guard let reply else { throw HarnessError("no reply to \(line)\n\(log)") }
    return reply
  }
}

/// A control-socket client that never blocks the test's thread (the loop is on it).
final class RawClient {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(_ path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.utf8.enumerated() { raw[i] = b }
    }
    // A listening socket's backlog takes the connection at once: no accept needed yet.
    let r = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard r == 0 else { throw HarnessError("connect \(path): errno \(errno)") }
  }

  deinit { close(fd) }

  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    guard bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count
    else { throw HarnessError("send: errno \(errno)") }
  }

  /// One reply line if it is all there, without blocking.
  func receiveLine() -> String? {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    if n > 0 { buffer += chunk[..<n] }
    guard let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let line = String(decoding: buffer[..<nl], as: UTF8.self)
    buffer.removeSubrange(...nl)
    return line
  }
}

/// `struct input_event` records as the kernel writes them (built by the C shim).
enum EvdevBytes {
  static func event(ns: UInt64, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: Int(CSHIM_INPUT_EVENT_SIZE))
    b.withUnsafeMutableBytes { raw in
      cshim_input_reference_event(
        raw.baseAddress, Int64(ns / 1_000_000_000), Int64(ns % 1_000_000_000 / 1000), type, code,
        value)
    }
    return b
  }

  /// A key going down (1) or up (0) at CLOCK_MONOTONIC `ns`, with its SYN_REPORT.
  static func key(_ code: UInt16, _ value: Int32, ns: UInt64) -> [UInt8] {
    event(ns: ns, type: UInt16(CSHIM_EV_KEY), code: code, value: value)
      + event(ns: ns, type: UInt16(CSHIM_EV_SYN), code: UInt16(CSHIM_SYN_REPORT), value: 0)
  }
}

/// `turn` ran out of time before its condition held.
struct HarnessTimeout: Error, CustomStringConvertible {
  var seconds: Double
  var log: String
  var description: String { "the condition did not hold within \(seconds) s; log:\n\(log)" }
}
