import AlarmCore
import AlarmPlatform
import Foundation
import Glibc
import Testing

/// HookRunner with real processes: shell scripts, sleep, a real epoll loop.
@Suite struct HookRunnerTests {
  let berlin = try! TimeZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")

  @Test func runsTheCommandWithArgvAsWrittenAndTheDocumentedEnvironment() throws {
    let h = try HookHarness(environment: ["SERVICE_VAR": "kept", "ALARM_ID": "overridden"])
    // The recorder: argv one per line, the environment, the fds, the signal state.
    try h.script(
      "record-hook",
      """
      out="$(dirname "$0")/record.txt"
      for a in "$@"; do printf 'arg=%s\\n' "$a"; done > "$out"
      env | sort | sed 's/^/env:/' >> "$out"
      printf 'stdin=%s\\n' "$(readlink /proc/$$/fd/0)" >> "$out"
      ls /proc/$$/fd | sed 's/^/fd:/' >> "$out"
      printf 'pgid=%s pid=%s\\n' "$(ps -o pgid= -p $$ | tr -d ' ')" "$$" >> "$out"
      # Last, by exec: the signal state the hook started with, not the shell's own while
      # it forks (dash blocks every signal around vfork).
      exec grep -E '^(SigBlk|SigIgn):' /proc/self/status >> "$out"
      """)
    // A descriptor without O_CLOEXEC, as a library might leave one: the hook must not get it.
    // The first free number from 77 up (above the shell's own): a dup2 onto a fixed number
    // would close what a test running alongside holds there (a hook's timer, never fired).
    let opened = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
    let leaked = fcntl(opened, F_DUPFD, 77)
    Glibc.close(opened)
    try #require(leaked >= 77)
    defer { Glibc.close(leaked) }
    // The service blocks these for its signalfd; the hook must start with an empty mask.
    try SignalFd.block([SIGHUP, SIGCHLD])
    SignalFd.ignore(SIGPIPE)
    defer { try? SignalFd.unblock([SIGHUP, SIGCHLD]) }

    let call = HookCall(
      event: .ring, alarmID: "weekday-0645", label: "Work day",
      firing: Instant(seconds: 1_806_209_100))
    let config = HooksConfig(commands: [.ring: ["record-hook", "two words", "$HOME", "*", "a\"b"]])
    let pid = try #require(h.retryingBusy { h.runner.run(call, hooks: config, zone: berlin) })
    #expect(try h.spinUntilIdle())

    let text = h.read("record.txt")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.hasPrefix("arg=") } == ["arg=two words", "arg=$HOME", "arg=*", "arg=a\"b"])
    #expect(lines.contains("env:ALARM_ID=weekday-0645"))
    #expect(lines.contains("env:ALARM_LABEL=Work day"))
    #expect(lines.contains("env:ALARM_EVENT=ring"))
    #expect(lines.contains("env:ALARM_TIME=2027-03-28T06:45:00+02:00"))
    #expect(lines.contains("env:SERVICE_VAR=kept"))
    #expect(lines.contains("env:PATH=\(h.dir.path):/usr/bin:/bin"))
    #expect(lines.contains("stdin=/dev/null"))
    #expect(!lines.contains("fd:\(leaked)"))
    #expect(lines.contains("SigBlk:\t0000000000000000"))
    // No standard signal ignored (SIGPIPE is, in the service and here); glibc itself
    // leaves its two internal real-time signals (32, 33) ignored in a spawned child.
    let ignored = try #require(
      lines.first { $0.hasPrefix("SigIgn:") }.flatMap {
        UInt64($0.dropFirst(8), radix: 16)
      })
    #expect(ignored & 0x7fff_ffff == 0)  // bit n-1 is signal n
    #expect(lines.contains("pgid=\(pid) pid=\(pid)"))
    #expect(
      h.record.results == [HookResult(name: "ring", pid: pid, status: .exited(0), timedOut: false)])
    #expect(h.record.level(of: "hook ring: done") == .info)
  }

  @Test func noCommandForTheEventRunsNothing() throws {
    let h = try HookHarness()
    let call = HookCall(event: .snooze, alarmID: "a", label: nil, firing: Instant(seconds: 0))
    #expect(h.runner.run(call, hooks: HooksConfig(), zone: .utc) == nil)
    #expect(h.record.logs.isEmpty)
  }

  @Test func aHangingHookIsKilledAfterItsTimeoutWhileTheLoopKeepsServing() throws {
    let h = try HookHarness()
    // Another client of the same loop: a 50 ms ticker that must keep ticking.
    let ticker = try TimerFd(clock: .monotonic)
    var ticks = 0
    try h.loop.register(ticker.descriptor, interest: .readable) { _ in
      if case .expired(let n) = try? ticker.read() { ticks += Int(n) }
    }
    try ticker.arm(after: .milliseconds(50), repeating: .milliseconds(50))

    let start = Clock.monotonic.now()
    let pid = try #require(h.runner.run(["sleep", "60"], timeout: .seconds(1), name: "pre_ring"))
    #expect(Processes.isAlive(pid))
    #expect(try h.spinUntilIdle())
    let elapsed = Clock.monotonic.since(start)

    #expect(elapsed >= .seconds(1) && elapsed < .seconds(5))
    #expect(ticks >= 12, "the loop served its other descriptors meanwhile")
    #expect(
      h.record.results == [
        HookResult(name: "pre_ring", pid: pid, status: .signaled(SIGTERM), timedOut: true)
      ])
    #expect(h.record.level(of: "still running after 1s; terminating it") == .warning)
    #expect(
      !h.record.lines(containing: "hook pre_ring: timed out after 1s, killed by signal 15").isEmpty)
    #expect(Processes.liveMembers(ofGroup: pid).isEmpty)
  }

  @Test func aTimeoutKillsTheWholeGroupEvenWhenTheHookIgnoresSIGTERM() throws {
    let h = try HookHarness(killGrace: .milliseconds(500))
    // The shell ignores SIGTERM (so does its child, inheriting that), and waits on a child.
    try h.script(
      "stubborn",
      """
      trap '' TERM
      sleep 60 &
      echo "child $!"
      wait
      """)
    let pid = try #require(h.runScript(["stubborn"], timeout: .seconds(1), name: "ring"))
    var child: Int32?
    try h.spin {
      child = h.record.lines(containing: "hook ring output: child ").first
        .flatMap { Int32($0.split(separator: " ").last ?? "") }
      return child != nil
    }
    let childPID = try #require(child)
    #expect(Processes.stat(childPID)?.group == pid, "the child shares the hook's group")
    #expect(try h.spinUntilIdle())

    #expect(h.record.results.map(\.status) == [.signaled(SIGKILL)])
    #expect(h.record.results.first?.timedOut == true)
    #expect(!h.record.lines(containing: "still there 500ms after SIGTERM; killed it").isEmpty)
    #expect(try h.spin(upTo: .seconds(2)) { !Processes.isAlive(childPID) })
    #expect(Processes.liveMembers(ofGroup: pid).isEmpty)
  }

  @Test func aShellHookAndItsChildDieTogetherOnSIGTERM() throws {
    let h = try HookHarness()
    try h.script("parent", "sleep 60 &\necho \"child $!\"\nwait\n")
    let pid = try #require(h.runScript(["parent"], timeout: .seconds(1), name: "ring"))
    #expect(try h.spinUntilIdle())
    let childLine = try #require(h.record.lines(containing: "output: child ").first)
    let childPID = try #require(Int32(childLine.split(separator: " ").last ?? ""))
    #expect(h.record.results.map(\.status) == [.signaled(SIGTERM)])
    #expect(try h.spin(upTo: .seconds(2)) { !Processes.isAlive(childPID) })
    #expect(Processes.liveMembers(ofGroup: pid).isEmpty)
  }

  @Test func aMissingProgramIsLoggedNotFatal() throws {
    let h = try HookHarness()
    #expect(h.runner.run(["no-such-hook-program", "x"], timeout: .seconds(5), name: "stop") == nil)
    #expect(
      h.record.level(of: "hook stop: cannot run 'no-such-hook-program': not found in PATH (")
        == .error)
    #expect(h.runner.run(["/nonexistent/lamp"], timeout: .seconds(5), name: "ring") == nil)
    let line = try #require(
      h.record.lines(containing: "hook ring: cannot run '/nonexistent/lamp'").first)
    #expect(line.contains("No such file or directory (errno 2)"))
    #expect(h.runner.run([], timeout: .seconds(5), name: "missed") == nil)
    #expect(h.record.level(of: "hook missed: no command to run") == .error)
    // A file without execute permission.
    let path = h.dir.file("not-executable")
    try "#!/bin/sh\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(h.runner.run([path], timeout: .seconds(5), name: "snooze") == nil)
    #expect(!h.record.lines(containing: "Permission denied").isEmpty)

    // The runner still works afterwards.
    #expect(h.runner.run(["true"], timeout: .seconds(5), name: "ring") != nil)
    #expect(try h.spinUntilIdle())
    #expect(h.record.results.map(\.status) == [.exited(0)])
  }

  @Test func aNonZeroExitIsLoggedWithItsStatus() throws {
    let h = try HookHarness()
    let pid = try #require(
      h.runner.run(["sh", "-c", "exit 3"], timeout: .seconds(5), name: "snooze"))
    #expect(try h.spinUntilIdle())
    #expect(
      h.record.results == [
        HookResult(name: "snooze", pid: pid, status: .exited(3), timedOut: false)
      ])
    #expect(h.record.level(of: "hook snooze: exited with status 3") == .warning)
  }

  @Test func aHookKilledByASignalIsLoggedWithIt() throws {
    let h = try HookHarness()
    _ = try #require(
      h.runner.run(["sh", "-c", "kill -USR1 $$"], timeout: .seconds(5), name: "stop"))
    #expect(try h.spinUntilIdle())
    #expect(h.record.results.map(\.status) == [.signaled(SIGUSR1)])
    #expect(!h.record.lines(containing: "hook stop: killed by signal \(SIGUSR1) (").isEmpty)
  }

  @Test func stdoutAndStderrAreLoggedLineByLine() throws {
    let h = try HookHarness()
    let command = "echo hello; echo 'to stderr' >&2; printf 'crlf\\r\\nno newline'"
    _ = try #require(h.runner.run(["sh", "-c", command], timeout: .seconds(5), name: "ring"))
    #expect(try h.spinUntilIdle())
    let output = h.record.logs.filter { $0.text.hasPrefix("hook ring output: ") }
    #expect(
      output.map(\.text) == [
        "hook ring output: hello", "hook ring output: to stderr", "hook ring output: crlf",
        "hook ring output: no newline",
      ])
    #expect(output.allSatisfy { $0.level == .info })
  }

  @Test func outputIsBoundedAndTheRestCounted() throws {
    let h = try HookHarness(outputLimit: 1000)
    // 3000 lines of "lineNNNN" (9 bytes each with the newline): 27000 bytes. 111 lines
    // fit in 1000 bytes; the budget's last byte is the 112th line, cut.
    let command = "i=1000; while [ $i -lt 4000 ]; do echo line$i; i=$((i+1)); done"
    _ = try #require(h.runner.run(["sh", "-c", command], timeout: .seconds(10), name: "ring"))
    #expect(try h.spinUntilIdle())
    let output = h.record.lines(containing: "hook ring output: ")
    #expect(output.count == 112)
    #expect(output.first == "hook ring output: line1000")
    #expect(output.dropLast().last == "hook ring output: line1110")
    #expect(output.last == "hook ring output: l")
    #expect(h.record.level(of: "hook ring: 26000 more bytes of output were not logged") == .notice)
    #expect(h.record.results.map(\.status) == [.exited(0)])
  }

  @Test func aHookIsDoneWhenItsBackgroundOutputEnds() throws {
    let h = try HookHarness()
    let command = "(sleep 0.3; echo late) & echo early"
    let pid = try #require(h.runner.run(["sh", "-c", command], timeout: .seconds(5), name: "ring"))
    #expect(try h.spinUntilIdle())
    #expect(
      h.record.lines(containing: "output: ") == [
        "hook ring output: early", "hook ring output: late",
      ])
    #expect(
      h.record.results == [HookResult(name: "ring", pid: pid, status: .exited(0), timedOut: false)])
  }

  @Test func hooksBeyondTheCapAreDroppedAndStopAllEndsTheRest() throws {
    let h = try HookHarness(maxRunning: 3)
    var started: [Int32] = []
    for _ in 0..<5 {
      if let pid = h.runner.run(["sleep", "60"], timeout: .seconds(60), name: "ring") {
        started.append(pid)
      }
    }
    #expect(started.count == 3)
    #expect(h.runner.runningCount == 3)
    #expect(h.runner.runningPIDs == started.sorted())
    #expect(h.record.lines(containing: "hook ring: not run: 3 hooks are still running").count == 2)
    #expect(h.record.level(of: "not run: 3 hooks") == .warning)

    // sleep dies on SIGTERM within the grace: no SIGKILL was needed (the statuses say so).
    h.runner.stopAll(grace: .seconds(1))
    #expect(h.runner.runningCount == 0)
    #expect(h.record.results.map(\.status) == Array(repeating: .signaled(SIGTERM), count: 3))
    for pid in started {
      #expect(Processes.liveMembers(ofGroup: pid).isEmpty)
      #expect(Processes.stat(pid) == nil, "reaped, not left a zombie")
    }
    #expect(h.record.lines(containing: "terminating it, the service is stopping").count == 3)
    // Room again.
    #expect(h.runner.run(["true"], timeout: .seconds(5), name: "ring") != nil)
    #expect(try h.spinUntilIdle())
  }

  @Test func stopAllKillsHooksThatIgnoreSIGTERM() throws {
    let h = try HookHarness()
    try h.script("stubborn", "trap '' TERM\nsleep 60 &\nwait\n")
    let pid = try #require(
      h.runScript(["stubborn"], timeout: .seconds(60), name: "ring"), "\(h.record.logs)")
    // Let the shell set its trap before it is signalled.
    try h.spin(upTo: .milliseconds(300)) { false }
    h.runner.stopAll(grace: .milliseconds(200))
    #expect(h.record.results.map(\.status) == [.signaled(SIGKILL)])
    #expect(try h.spin(upTo: .seconds(2)) { Processes.liveMembers(ofGroup: pid).isEmpty })
  }
}
