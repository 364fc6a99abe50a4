import AudioTestSupport
import Foundation

/// Runs the built `alarmclock` binary the way a user or script would, and
/// captures what it printed and its exit code.
struct CLIResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

enum CLI {
  /// The `alarmclock` executable built beside this test bundle.
  static let binary = BuiltProduct.path("alarmclock")

  /// `alarmclock-bench` (measurements and fault injection), built beside `alarmclock`.
  static let bench: String = URL(fileURLWithPath: binary).deletingLastPathComponent()
    .appendingPathComponent("alarmclock-bench").path

  /// The repository root (for examples/, sounds/).
  static let repo: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Runs `alarmclock ARGS`, waiting at most `timeout` seconds.
  @discardableResult
  static func run(
    _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    timeout: TimeInterval = 60
  ) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["LC_ALL"] = nil
    env["LC_MESSAGES"] = nil
    env["LANG"] = "C.UTF-8"
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child cannot block on a full pipe.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    group.wait()
    return CLIResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

extension TempDir {
  /// Writes `text` to `name` inside the directory and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let path = file(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}
