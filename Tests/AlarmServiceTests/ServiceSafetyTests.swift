import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// Hardening of the state file (docs/reliability.md): coalesced writes with replies after
/// the write, and directories or files another user could have planted.
@Suite(.serialized) struct ServiceSafetyTests {
  typealias H = ServiceHarness

  /// Four clients loop skip/unskip at once; each reply comes after its change is on disk,
  /// yet the writes stay a few per second (before: one write, one rename and two fsyncs
  /// per request).
  @Test func aSkipUnskipLoopIsCoalescedAndEveryOkIsOnDisk() throws {
    let ids = ["a0", "a1", "a2", "a3"]
    let h = try H(
      config: H.config(ids.map { H.alarm($0, "07:00") }.joined()), at: H.at(6, 0))
    let clients = try ids.map { _ in try RawClient(h.socket) }
    let pairs = 4
    var sent = [Int](repeating: 0, count: ids.count)
    var failures: [String] = []
    let before = h.service.saver.writeCount
    let started = TimerFd.Clock.monotonic.now()
    func send(_ i: Int) throws {
      let cmd = sent[i] % 2 == 0 ? "skip" : "unskip"
      try clients[i].send(#"{"cmd":"\#(cmd)","id":"\#(ids[i])"}"# + "\n")
      sent[i] += 1
    }
    for i in ids.indices { try send(i) }
    var done = 0
    try #require(
      try h.turn(timeout: 30) {
        for i in ids.indices {
          guard let reply = clients[i].receiveLine() else { continue }
          if !reply.contains(#""ok":true"#) { failures.append(reply) }
          // The file on disk already says what the reply says.
          let skipped = (try? h.savedState().marks.skipNext[ids[i]]) != nil
          if skipped != (sent[i] % 2 == 1) { failures.append("\(ids[i]) #\(sent[i]) not on disk") }
          if sent[i] < 2 * pairs { try? send(i) } else { done += 1 }
        }
        return done == ids.count
      }, "the loop did not finish:\n\(h.log)")
    let elapsed = TimerFd.Clock.monotonic.now() - started
    let writes = h.service.saver.writeCount - before
    #expect(failures.isEmpty, "\(failures)")
    // One write per interval at most, plus the first one at once.
    let bound = Int(elapsed / h.service.saver.minInterval) + 1
    #expect(writes <= bound, "\(writes) writes in \(elapsed)")
    #expect(writes < ids.count * 2 * pairs)
    #expect(try h.savedState().marks.skipNext.isEmpty)
  }

  @Test func aWorldWritableStateDirectoryIsRefused() throws {
    let dir = H.tempDirectory()
    defer { _ = system("rm -rf '\(dir)'") }
    try H.write(H.config(H.alarm("wake", "07:00")), to: dir + "/alarms.toml")
    for sub in ["state", "run"] {
      #expect(mkdir(dir + "/" + sub, 0o700) == 0 && chmod(dir + "/" + sub, 0o777) == 0)
    }
    let log = Logger(fd: open("/dev/null", O_WRONLY), environment: Environment([:]))
    var options = ServiceOptions(
      configPath: dir + "/alarms.toml", stateDir: dir + "/state", socket: dir + "/ok.sock",
      environment: ["TZ": "UTC"])
    #expect {
      _ = try Service(options: options, log: log)
    } throws: { error in
      "\(error)".contains("the state directory \(dir)/state is writable by every user")
        && "\(error)".contains("chmod o-w \(dir)/state")
    }
    // The socket's directory too; a sticky one of ours (like /tmp) is fine.
    options.stateDir = dir + "/ok-state"
    options.socket = dir + "/run/control.sock"
    #expect {
      _ = try Service(options: options, log: log)
    } throws: { "\($0)".contains("chmod o-w \(dir)/run") }
    #expect(chmod(dir + "/run", 0o1777) == 0)
    let service = try Service(options: options, log: log)
    service.shutDown()
  }

  @Test func aStateFileOfAnotherUserIsMovedAside() throws {
    let h = try H(
      config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0),
      prepare: { _, dir in
        // Yesterday's planted skip of tomorrow's alarm.
        var state = ServiceState()
        state.marks.skipNext["wake"] = LocalDate(year: 2040, month: 1, day: 2)
        try FileSystem.createDirectory(dir + "/state", mode: 0o750, intermediates: false)
        try AtomicFile.write(StateCodec.encode(state), to: dir + "/state/state.json", mode: 0o640)
        guard chown(dir + "/state/state.json", 4242, 4242) == 0 else {
          throw HarnessError("chown: errno \(errno)")
        }
      })
    #expect(h.service.engine.state.marks.skipNext.isEmpty)
    #expect(h.log.contains("owned by uid 4242, not by this service's user"))
    #expect(h.log.contains("moved it to \(h.statePath).bad-"))
    #expect(h.plan.deadline == H.at(6, 59, 58))
  }
}
