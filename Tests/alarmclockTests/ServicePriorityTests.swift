import AudioTestSupport
import Foundation
import Testing

/// The real binary's ring path under real-time scheduling: granted, its playback thread
/// and event loop run SCHED_FIFO and hooks do not; refused, one warning each and the
/// service rings the same (its sample buffers unlocked, said once too).
@Suite(.serialized) struct ServicePriorityTests {
  /// A daily alarm far off, rung on demand, whose ring hook writes its own policy.
  static func config(_ dir: TempDir) throws -> (config: String, policy: String) {
    let policy = dir.file("hook-policy")
    let config = ServiceControlTests.config(
      """
      [[alarm]]
      id = "wake"
      time = "\(awayFromNow(hours: 6))"
      days = "daily"
      """,
      extra: """

        [hooks]
        ring = ["sh", "-c", "awk '{ print $41 }' /proc/self/stat > \(policy)"]
        """)
    return (config, policy)
  }

  /// (policy, rt_priority) of each thread of `pid`, from /proc/PID/task/TID/stat.
  static func threads(_ pid: Int32) -> [(policy: Int, priority: Int)] {
    let dir = "/proc/\(pid)/task"
    let tids = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    return tids.compactMap { tid in
      guard let stat = try? String(contentsOfFile: "\(dir)/\(tid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // Fields after the command's ")": the 3rd field is the first of them.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 38, let priority = Int(fields[37]), let policy = Int(fields[38])
      else { return nil }
      return (policy, priority)
    }
  }

  /// `VmLck` of `pid` in KiB (0 when it cannot be read).
  static func lockedKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmLck:") })
    else { return 0 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
  }

  static func hookPolicy(_ path: String) throws -> String {
    try waitFor("the ring hook", timeout: 10) { FileManager.default.fileExists(atPath: path) }
    var text = ""
    try waitFor("the ring hook's output", timeout: 5) {
      text = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
      return !text.isEmpty
    }
    return text
  }

  @Test(.enabled(if: getuid() == 0, "needs root to both grant and take away CAP_SYS_NICE"))
  func grantedTheRingPathRunsFIFOAndItsHooksDoNot() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let (config, policy) = try Self.config(dir)
    let service = try ServiceProcess(dir: dir, config: config)
    try service.waitForLog("event loop: real-time priority 5 (SCHED_FIFO)")
    try service.waitForLog("audio: playback thread: real-time priority 10 (SCHED_FIFO)")
    let fifo = Self.threads(service.pid).filter { $0.policy == 1 }.map(\.priority).sorted()
    #expect(fifo == [5, 10], "\(Self.threads(service.pid))")
    #expect(try service.ctl(["ring", "wake"]).status == 0)
    try service.waitForLog("ringing 'wake'")
    // While it rings, the playback thread's sample buffers are locked in RAM.
    try waitFor("locked sample buffers", timeout: 10) { Self.lockedKiB(service.pid) > 0 }
    #expect(try Self.hookPolicy(policy) == "0", "a hook runs SCHED_OTHER")
    #expect(!service.log.contains("refused"), "\(service.log)")
    #expect(try service.ctl(["stop"]).status == 0)
    #expect(service.terminate() == 0)
  }

  @Test(.enabled(if: getuid() == 0, "needs root to both grant and take away CAP_SYS_NICE"))
  func refusedItWarnsOnceEachAndRingsTheSame() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let (config, policy) = try Self.config(dir)
    // A system without LimitRTPRIO= and with no room to lock memory: no rtprio or memlock
    // allowance, no CAP_SYS_NICE or CAP_IPC_LOCK.
    let service = try ServiceProcess(
      dir: dir, config: config,
      launcher: [
        "/usr/bin/prlimit", "--rtprio=0:0", "--memlock=0:0", "--", "setpriv",
        "--inh-caps=-sys_nice,-ipc_lock", "--bounding-set=-sys_nice,-ipc_lock", "--",
      ])
    try service.waitForLog("event loop: real-time priority refused")
    try service.waitForLog("audio: playback thread: real-time priority refused")
    #expect(service.log.contains("LimitRTPRIO=10"))
    let threads = Self.threads(service.pid)
    #expect(!threads.isEmpty && threads.allSatisfy { $0.policy == 0 }, "\(threads)")
    #expect(try service.ctl(["ring", "wake"]).status == 0)
    try service.waitForLog("ringing 'wake'")
    try service.waitForLog("sample buffers not locked in RAM")
    #expect(try Self.hookPolicy(policy) == "0")
    #expect(try service.ctl(["stop"]).status == 0)
    try service.waitForLog("stopped")
    #expect(service.log.components(separatedBy: "real-time priority refused").count == 3)
    // The ring's buffers could not be locked: said once, and the ring played on.
    #expect(service.log.components(separatedBy: "sample buffers not locked in RAM").count == 2)
    #expect(service.terminate() == 0)
  }
}
