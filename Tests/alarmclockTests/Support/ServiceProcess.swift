import AudioTestSupport
import Foundation
import Testing

/// A running `alarmclock run` in a temp dir of its own: config, state and socket there,
/// its log in a file the test reads while it runs.
final class ServiceProcess {
  let dir: TempDir
  var configPath: String { dir.file("alarms.toml") }
  var stateDir: String { dir.file("state") }
  var socket: String { dir.file("state/control.sock") }
  var logPath: String { dir.file("service.log") }
  private var logHandle: FileHandle?
  private let launcher: [String]
  /// Whether `--state-dir` and `--socket` are passed (else the config's `[settings]`, or
  /// the defaults, decide).
  private let pathFlags: Bool

  /// Writes `config` and starts the service; returns once it said it is ready.
  /// `launcher` runs the binary (e.g. `prlimit --nofile=96:96 --`), when given.
  init(
    dir: TempDir, config: String, environment: [String: String] = [:], launcher: [String] = [],
    pathFlags: Bool = true
  ) throws {
    self.dir = dir
    self.launcher = launcher
    self.pathFlags = pathFlags
    try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    try start(environment: environment)
  }

  /// Starts (or, after `kill9`, restarts) the service on the same files.
  func start(environment: [String: String] = [:]) throws {
    let previous = log
    let p = Process()
    p.executableURL = URL(fileURLWithPath: launcher.first ?? CLI.binary)
    var arguments = ["run", "--config", configPath, "--log-level", "debug", "--no-terminal"]
    if pathFlags { arguments += ["--state-dir", stateDir, "--socket", socket] }
    p.arguments = Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [CLI.binary]) + arguments
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = "UTC"
    env["NOTIFY_SOCKET"] = nil
    for (k, v) in environment { env[k] = v }
    p.environment = env
    FileManager.default.createFile(atPath: logPath, contents: Data(previous.utf8))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    handle.seekToEndOfFile()
    logHandle = handle
    p.standardError = handle
    p.standardOutput = handle
    p.standardInput = FileHandle.nullDevice
    try p.run()
    running = p
    let readyLines = previous.components(separatedBy: "ready:").count
    try waitFor("the service to be ready", timeout: 15) {
      self.log.components(separatedBy: "ready:").count > readyLines || !p.isRunning
    }
    guard p.isRunning else {
      throw ServiceTestError("the service exited at start-up:\n\(log)")
    }
  }

  private var running: Process?

  var pid: Int32 { running?.processIdentifier ?? 0 }
  var isRunning: Bool { running?.isRunning ?? false }

  /// Everything the service has logged so far (all its runs).
  var log: String {
    (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
  }

  /// Waits until the log has a line containing `text` (counting from `after` occurrences).
  func waitForLog(_ text: String, count: Int = 1, timeout: Double = 15) throws {
    try waitFor("'\(text)' in the log", timeout: timeout) {
      self.log.components(separatedBy: text).count - 1 >= count
    }
  }

  /// Runs a client command against this service (`--socket` added).
  @discardableResult
  func ctl(_ arguments: [String]) throws -> CLIResult {
    try CLI.run(arguments + ["--socket", socket], environment: ["TZ": "UTC"], timeout: 20)
  }

  /// `status --json`, parsed.
  func status() throws -> [String: Any] {
    let r = try ctl(["status", "--json"])
    guard r.status == 0, let data = r.stdout.data(using: .utf8),
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw ServiceTestError("status failed (\(r.status)): \(r.stderr)\(r.stdout)") }
    return object
  }

  /// The session's state ("ringing", "snoozed") or nil.
  func sessionState() throws -> String? {
    (try status()["session"] as? [String: Any])?["state"] as? String
  }

  /// SIGKILL: no chance to save or clean up, as in a crash or power cut.
  func kill9() {
    guard let p = running else { return }
    kill(p.processIdentifier, SIGKILL)
    p.waitUntilExit()
  }

  /// SIGTERM and the exit status.
  @discardableResult
  func terminate(timeout: Double = 10) -> Int32 {
    guard let p = running, p.isRunning else { return running?.terminationStatus ?? -1 }
    kill(p.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(10_000) }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    return p.terminationStatus
  }

  deinit {
    if let p = running, p.isRunning { kill(p.processIdentifier, SIGKILL) }
  }
}

struct ServiceTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
func waitFor(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return }
    usleep(20_000)
  }
  throw ServiceTestError("timed out after \(timeout) s waiting for \(what)")
}

/// Wall-clock times for configs: `HH:MM:SS` in UTC, `seconds` from now.
enum TestClock {
  static func time(in seconds: Double) -> String {
    let date = Date().addingTimeInterval(seconds)
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "HH:mm:ss"
    return f.string(from: date)
  }

  /// Whole seconds: the next instant `seconds` or more ahead, as Unix time and `HH:MM:SS`.
  static func firing(in seconds: Double) -> (unix: Double, text: String) {
    let at = (Date().timeIntervalSince1970 + seconds).rounded(.up)
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "HH:mm:ss"
    return (at, f.string(from: Date(timeIntervalSince1970: at)))
  }
}

/// Null sinks of the service tests' own, one per suite that listens, so that a suite's
/// recording never hears another suite's rings (suites run in parallel).
enum ServiceSink {
  /// ServiceRingTests records this one.
  static let ring = "alarmclock_service_ring"
  /// ServiceInputTests records this one.
  static let input = "alarmclock_service_input"
  /// ServiceStreamTests records this one.
  static let stream = "alarmclock_service_stream"
  /// The suites that ring without listening.
  static let quiet = "alarmclock_service_quiet"

  /// `pulse:NAME`, creating the sink if needed.
  static func device(_ name: String) throws -> String {
    try PulseTestServer.device(ownSink: name)
  }
}

/// A UTC wall time ("HH:MM") `hours` from now. A daily alarm there neither rings when a
/// test's service starts nor while the test runs, whatever time of day the suite runs (a
/// fixed "06:45" rang at once when CI ran at 06:48: a fresh start rings a window that
/// covers now).
func awayFromNow(hours: Int) -> String {
  let minutes = Int(Date().timeIntervalSince1970 / 60) + hours * 60
  let ofDay = ((minutes % 1440) + 1440) % 1440
  return String(format: "%02d:%02d", ofDay / 60, ofDay % 60)
}
