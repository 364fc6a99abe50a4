import AlarmCore
import AlarmPlatform
import AudioTestSupport
import Foundation
import Glibc

/// What a runner logged and reported, in order.
final class HookRecord {
  var logs: [(level: LogLevel, text: String)] = []
  var results: [HookResult] = []

  /// The logged messages containing `text`.
  func lines(containing text: String) -> [String] {
    logs.map(\.text).filter { $0.contains(text) }
  }

  func level(of text: String) -> LogLevel? {
    logs.first { $0.text.contains(text) }?.level
  }
}

/// An event loop driven by the test's own thread (HookRunner is loop-thread only), a
/// runner on it with PATH = a temp dir + /usr/bin:/bin, and what the runner logged.
final class HookHarness {
  let loop: EventLoop
  let runner: HookRunner
  let record = HookRecord()
  let dir: TempDir

  init(
    environment: [String: String] = [:], maxRunning: Int = 16, outputLimit: Int = 4096,
    killGrace: Duration = .milliseconds(500)
  ) throws {
    loop = try EventLoop()
    dir = try TempDir("hooks")
    var env = ["PATH": "\(dir.path):/usr/bin:/bin"]
    env.merge(environment) { _, new in new }
    let record = record
    runner = HookRunner(
      loop: loop, environment: Environment(env), maxRunning: maxRunning,
      outputLimit: outputLimit, killGrace: killGrace
    ) { level, text in record.logs.append((level, text)) }
    runner.onFinish = { record.results.append($0) }
  }

  deinit {
    runner.stopAll(grace: .milliseconds(100))
    dir.remove()
  }

  /// Runs the loop until `condition` holds or `limit` passed; returns whether it held.
  @discardableResult
  func spin(upTo limit: Duration = .seconds(10), until condition: () -> Bool) throws -> Bool {
    let deadline = Clock.monotonic.now() + limit
    while !condition() {
      if Clock.monotonic.now() >= deadline { return false }
      try loop.runOnce(timeout: .milliseconds(50))
    }
    return true
  }

  /// Runs the loop until `runner` has no hook left.
  @discardableResult
  func spinUntilIdle(upTo limit: Duration = .seconds(10)) throws -> Bool {
    try spin(upTo: limit) { runner.runningCount == 0 }
  }

  /// `runner.run` for a script a test just wrote. A process another test spawns at that
  /// moment holds a copy of the writer's descriptor between its fork and its exec, and an
  /// exec of a file open for writing fails with ETXTBSY: retry that briefly (and forget its
  /// log line). Every other failure is returned as it is.
  func runScript(_ argv: [String], timeout: Duration, name: String) -> Int32? {
    retryingBusy { runner.run(argv, timeout: timeout, name: name) }
  }

  /// Starts a hook through `start`, retrying ETXTBSY as `runScript` does.
  func retryingBusy(_ start: () -> Int32?) -> Int32? {
    for _ in 0..<20 {
      if let pid = start() { return pid }
      guard record.logs.last?.text.contains("Text file busy") == true else { return nil }
      record.logs.removeLast()
      usleep(20_000)
    }
    return nil
  }

  /// Writes an executable shell script into the temp dir and returns its path.
  @discardableResult
  func script(_ name: String, _ body: String) throws -> String {
    let path = dir.file(name)
    try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
  }

  func read(_ name: String) -> String {
    (try? String(contentsOfFile: dir.file(name), encoding: .utf8)) ?? ""
  }
}

/// Processes, as /proc shows them.
enum Processes {
  /// The state letter and process group of `pid`, nil when there is no such process.
  static func stat(_ pid: Int32) -> (state: Character, group: Int32)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    // After "pid (comm) ": state ppid pgrp ...
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 2, let state = fields[0].first, let group = Int32(fields[2]) else {
      return nil
    }
    return (state, group)
  }

  /// True while `pid` exists and is not a zombie.
  static func isAlive(_ pid: Int32) -> Bool {
    guard let s = stat(pid) else { return false }
    return s.state != "Z" && s.state != "X"
  }

  /// The live (non-zombie) processes in process group `group`.
  static func liveMembers(ofGroup group: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let s = stat(pid) else { return false }
      return s.group == group && s.state != "Z" && s.state != "X"
    }
  }
}
