import Foundation
import Testing

@testable import AlarmPlatform

/// The real-time scheduling of the ring path and the locked sample buffers, on the real
/// kernel: what is asserted depends on whether this process may use SCHED_FIFO (root or
/// CAP_SYS_NICE, or an rtprio limit), and both answers are checked.
@Suite struct SystemThreadPriorityTests {
  /// Whether this process may raise a thread to `priority` (the kernel's own rule).
  static func mayRaise(to priority: Int32) -> Bool {
    var limit = rlimit()
    if getrlimit(Int32(__RLIMIT_RTPRIO.rawValue), &limit) == 0,
      limit.rlim_cur >= rlim_t(priority)
    {
      return true
    }
    return hasCapability(23)  // CAP_SYS_NICE
  }

  static func hasCapability(_ bit: Int) -> Bool {
    let status = (try? FileSystem.readText("/proc/self/status")) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
      let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(bit)) != 0
  }

  /// Runs `body` on a thread of its own (a raised thread must not be one the test pool
  /// goes on using) and returns its result.
  static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let value = body()
      result.withLock { $0 = value }
      done.signal()
    }
    thread.start()
    done.wait()
    return result.withLock { $0! }
  }

  /// The policy (field 41 of /proc/PID/stat) of a process `/bin/sh` starts from the
  /// calling thread: what a hook runs under.
  static func childPolicy() -> Int32? {
    let out = "/tmp/alarmclock-policy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(out) }
    let script = "awk '{ print $41 }' /proc/self/stat > \(out)"
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sh"), strdup("-c"), strdup(script), nil]
    defer { for arg in argv { free(arg) } }
    guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let text = (try? FileSystem.readText(out)) ?? ""
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  struct Raised: Sendable {
    var outcome: ThreadPriority.Outcome
    var during: ThreadPriority.Scheduling
    var slack: Int
    var childPolicy: Int32?
    var after: ThreadPriority.Scheduling
  }

  @Test func aRaisedThreadRunsFIFOItsChildrenDoNotAndItCanBeRestored() {
    let got = Self.onThread { () -> Raised in
      let before = ThreadPriority.current()
      let outcome = ThreadPriority.raiseCallingThread(to: ThreadPriority.playback)
      let during = ThreadPriority.current()
      let slack = ThreadPriority.timerSlack()
      let child = Self.childPolicy()
      ThreadPriority.restore(before)
      return Raised(
        outcome: outcome, during: during, slack: slack, childPolicy: child,
        after: ThreadPriority.current())
    }
    // 1 ns is asked for either way (it needs no privilege); kernels since 6.7 make it 0
    // for a real-time thread on their own.
    #expect(got.slack == 1 || got.slack == 0, "\(got.slack)")
    #expect(got.after == ThreadPriority.Scheduling(policy: SCHED_OTHER, priority: 0))
    if Self.mayRaise(to: ThreadPriority.playback) {
      #expect(got.outcome == .raised(priority: 10))
      #expect(got.during == ThreadPriority.Scheduling(policy: SCHED_FIFO, priority: 10))
      #expect(
        got.outcome.message(thread: "playback thread")
          == "playback thread: real-time priority 10 (SCHED_FIFO)")
      // SCHED_RESET_ON_FORK: a hook started from the ring path is an ordinary process.
      #expect(got.childPolicy == SCHED_OTHER)
    } else {
      #expect(got.slack == 1)
      guard case .refused(let error) = got.outcome else {
        Issue.record("raised without permission: \(got.outcome)")
        return
      }
      #expect(error.errno == EPERM)
      #expect(got.during.policy == SCHED_OTHER)
      let text = got.outcome.message(thread: "playback thread")
      #expect(text.contains("playback thread: real-time priority refused"), "\(text)")
      #expect(text.contains("LimitRTPRIO=10"), "\(text)")
    }
  }

  @Test func aPinnedBufferIsZeroedWholePagesAndLockedWhenAllowed() throws {
    let buffer = PinnedBuffer<Float>(count: 3000)  // 12,000 bytes: three pages
    #expect(buffer.count == 3000)
    #expect(Int(bitPattern: buffer.base) % 4096 == 0)
    #expect((0..<3000).allSatisfy { buffer.base[$0] == 0 })
    buffer.base[2999] = 1.5
    #expect(buffer.base[2999] == 1.5)
    var limit = rlimit()
    _ = getrlimit(Int32(__RLIMIT_MEMLOCK.rawValue), &limit)
    if limit.rlim_cur >= 12_288 || Self.hasCapability(14) {  // CAP_IPC_LOCK
      #expect(buffer.pinError == nil)
      let status = try FileSystem.readText("/proc/self/status")
      let locked = status.split(separator: "\n").first { $0.hasPrefix("VmLck:") }
      let kib = locked.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
      #expect((kib ?? 0) >= 12, "\(String(describing: locked))")
    } else {
      #expect(buffer.pinError?.errno == ENOMEM || buffer.pinError?.errno == EPERM)
    }
  }
}
