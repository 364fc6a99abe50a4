import AlarmCore
import AlarmPlatform
import Foundation
import Glibc
import Testing

/// What a hook must not get from the service, and what it must not take from it.
@Suite struct HookHardeningTests {
  /// systemd's variables for the service itself never reach a hook: with NOTIFY_SOCKET a
  /// hook could report READY or ping the watchdog as the service.
  @Test func systemdServiceVariablesAreNotPassedOn() throws {
    let h = try HookHarness(environment: [
      "NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000",
      "WATCHDOG_PID": "1", "LISTEN_FDS": "1", "LISTEN_PID": "1", "LISTEN_FDNAMES": "control",
      "SERVICE_VAR": "kept",
    ])
    let out = h.dir.file("env.txt")
    _ = try #require(
      h.runner.run(["sh", "-c", "env > '\(out)'"], timeout: .seconds(10), name: "ring"))
    #expect(try h.spinUntilIdle())
    let names = Set(
      h.read("env.txt").split(separator: "\n").map { String($0.prefix { $0 != "=" }) })
    #expect(names.contains("SERVICE_VAR"))
    #expect(names.isDisjoint(with: HookRunner.serviceOnly), "\(names.sorted())")
    #expect(HookRunner.serviceOnly.count == 6)
  }

  /// A hook writing without pause (`cat /dev/zero`) until its timeout: once over budget its
  /// pipe is read a bounded amount per `floodPause`, so the loop mostly sleeps. The bytes
  /// the runner took and dropped measure its work (before: ~900 MB in 2 s, a core busy).
  @Test func aFloodingHookDoesNotKeepTheLoopBusy() throws {
    let h = try HookHarness(outputLimit: 100)
    _ = try #require(h.runner.run(["cat", "/dev/zero"], timeout: .seconds(2), name: "flood"))
    #expect(try h.spinUntilIdle(upTo: .seconds(20)))
    #expect(h.record.results.map(\.timedOut) == [true])
    let line = try #require(
      h.record.lines(containing: "more bytes of output were not logged").first)
    let dropped = Int(line.split(separator: " ")[2]) ?? -1
    // At most 16 x 4 KiB per pause over the hook's ~2-3 s, plus a pipe's worth at the end.
    #expect(dropped > 0 && dropped < 6 << 20, "\(line)")
  }
}
