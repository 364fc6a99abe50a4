import Foundation

/// Running the command-line tools the audio tests generate files with (sox, lame, flac,
/// oggenc, opusenc, pactl, parec).
public enum Tool {
  /// Runs `argv` (searched in PATH) and returns its exit status, standard output and
  /// standard error. Throws only when the program cannot be started.
  @discardableResult
  public static func run(_ argv: [String], environment: [String: String]? = nil) throws -> (
    status: Int32, out: String, err: String
  ) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = argv
    if let environment {
      p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (
      p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self)
    )
  }

  /// Runs `argv` and throws with its stderr when it fails.
  public static func check(_ argv: [String]) throws {
    let r = try run(argv)
    if r.status != 0 { throw ToolError(argv: argv, status: r.status, stderr: r.err) }
  }
}

public struct ToolError: Error, CustomStringConvertible {
  public var argv: [String]
  public var status: Int32
  public var stderr: String
  public var description: String { "\(argv.joined(separator: " ")) exited \(status): \(stderr)" }
}

/// A fresh temporary directory, removed by `remove()`.
public struct TempDir {
  public let path: String

  public init(_ tag: String = "audio") throws {
    let base = NSTemporaryDirectory() + "alarmclock-\(tag)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    path = base
  }

  public func file(_ name: String) -> String { path + "/" + name }

  /// The names in the directory, sorted.
  public func entries() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Whether the private PulseAudio server of scripts/test is there (PULSE_SERVER set).
public enum PulseTestServer {
  public static var environment: [String: String] { ProcessInfo.processInfo.environment }
  public static var available: Bool { environment["PULSE_SERVER"] != nil }
  /// The null sink the tests play to and record from.
  public static var sink: String { environment["ALARMCLOCK_TEST_SINK"] ?? "alarmclock_test" }
  /// The ALSA device `pulse:NAME` for a null sink of the suite's own, loaded if needed: suites
  /// that record run in parallel, and one suite's sound must not reach another's recording.
  public static func device(ownSink name: String) throws -> String {
    let sinks = try Tool.run(["pactl", "list", "short", "sinks"]).out
    if !sinks.contains(name) {
      try Tool.check(["pactl", "load-module", "module-null-sink", "sink_name=\(name)"])
    }
    return "pulse:\(name)"
  }
  public static let skipMessage =
    "PULSE_SERVER is unset: run under scripts/test (or `source scripts/pulse-env && pulse_start`)"
}

/// The package's built executables, for tests that run them as a user would.
public enum BuiltProduct {
  /// The executable `name` built beside the running test bundle (which runs from
  /// .build/<triple>/debug/), else the one in the repository's .build/debug/.
  public static func path(_ name: String) -> String {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    // This file is Tests/AudioTestSupport/Tools.swift.
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return repo.appendingPathComponent(".build/debug/" + name).path
  }
}
