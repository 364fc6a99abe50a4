import AudioTestSupport
import Foundation
import Testing

/// `[hooks]` run by the service on its events, with the documented environment.
@Suite(.serialized) struct ServiceHookTests {
  /// A hook that appends its first argument and the ALARM_* variables to `log`.
  static func recorder(_ dir: TempDir) throws -> (script: String, log: String) {
    let script = dir.file("record.sh")
    let log = dir.file("hooks.log")
    try """
    #!/bin/sh
    echo "$1|$ALARM_EVENT|$ALARM_ID|$ALARM_LABEL|$ALARM_TIME" >> '\(log)'
    """.write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    return (script, log)
  }

  static func lines(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  @Test func everyEventRunsItsHookWithTheAlarmsEnvironment() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let (script, log) = try Self.recorder(dir)
    let firing = TestClock.firing(in: 5)
    let config = ServiceControlTests.config(
      """
      [[alarm]]
      id = "wake"
      label = "Wake up"
      time = "\(firing.text)"
      days = "daily"
      snooze = "2s"
      """,
      extra: """

        [hooks]
        pre_ring = ["\(script)", "pre"]
        ring = ["\(script)", "ring"]
        snooze = ["\(script)", "snooze"]
        stop = ["\(script)", "stop"]
        pre_ring_lead = "3s"
        """)
    let service = try ServiceProcess(dir: dir, config: config)
    try waitFor("the pre_ring hook", timeout: 10) { Self.lines(log).count >= 1 }
    #expect(realtimeNow() < firing.unix, "pre_ring runs before the alarm")
    try service.waitForLog("ringing 'wake'", timeout: 10)
    try waitFor("the ring hook", timeout: 5) { Self.lines(log).count >= 2 }
    #expect(try service.ctl(["snooze"]).status == 0)
    try service.waitForLog("snooze over", timeout: 10)
    #expect(try service.ctl(["stop"]).status == 0)
    try waitFor("the stop hook", timeout: 5) { Self.lines(log).count >= 5 }
    let at = "T" + firing.text + "+00:00"
    let got = Self.lines(log)
    #expect(
      got.map { $0.split(separator: "|").first.map(String.init) ?? "" } == [
        "pre", "ring", "snooze", "ring", "stop",
      ], "\(got)")
    for line in got {
      let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      #expect(f.count == 5 && f[2] == "wake" && f[3] == "Wake up" && f[4].hasSuffix(at), "\(line)")
    }
    #expect(got[0].hasPrefix("pre|pre_ring|"), "\(got[0])")
    #expect(service.terminate() == 0)
  }

  @Test func aHangingHookIsKilledAndAMissingOneLoggedWhileTheRingGoesOn() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let config = ServiceControlTests.config(
      """
      [[alarm]]
      id = "wake"
      time = "\(awayFromNow(hours: 6))"
      days = "daily"
      """,
      extra: """

        [hooks]
        ring = ["sleep", "60"]
        snooze = ["/nonexistent/lamp", "off"]
        timeout = "1s"
        """)
    let service = try ServiceProcess(dir: dir, config: config)
    #expect(try service.ctl(["ring", "wake"]).status == 0)
    try service.waitForLog("hook ring: still running after", timeout: 10)
    #expect(try service.sessionState() == "ringing")
    #expect(try service.ctl(["snooze"]).status == 0)
    try service.waitForLog("hook snooze: cannot run '/nonexistent/lamp'", timeout: 5)
    #expect(try service.sessionState() == "snoozed")
    #expect(service.isRunning)
    #expect(service.terminate() == 0)
  }

  @Test func anAlarmMissedWhileDownRunsTheMissedHook() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let (script, log) = try Self.recorder(dir)
    let firing = TestClock.firing(in: 2)
    let config = ServiceControlTests.config(
      "[[alarm]]\nid = \"wake\"\ntime = \"\(firing.text)\"\ndays = \"daily\"\nring_for = \"1s\"\n",
      extra: "\n[hooks]\nmissed = [\"\(script)\", \"missed\"]\n")
    let service = try ServiceProcess(dir: dir, config: config)
    service.kill9()
    try waitFor("the window to pass", timeout: 10) { realtimeNow() > firing.unix + 1.5 }
    try service.start()
    try waitFor("the missed hook", timeout: 5) { Self.lines(log).count >= 1 }
    #expect(
      Self.lines(log).first?.hasPrefix("missed|missed|wake|Alarm|") == true, "\(Self.lines(log))")
    #expect(service.terminate() == 0)
  }
}
