import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// Errors that matter are said, not swallowed; no wake-up without a reason.
@Suite(.serialized) struct ServiceErrorTests {
  typealias H = ServiceHarness

  /// The copy that rescues a morning after a typo and a power cut could not be saved: the
  /// log says so (the config still applies).
  @Test func aLastGoodCopyThatCannotBeSavedIsLogged() throws {
    let h = try H(
      config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0),
      prepare: { _, dir in
        mkdir(dir + "/state", 0o750)
        mkdir(dir + "/state/last-good.toml", 0o750)
      })
    #expect(h.log.contains("cannot save the last good config to"), "\(h.log)")
    #expect(h.service.engine.alarms["wake"] != nil)
  }

  /// READY=1 that cannot be sent (NOTIFY_SOCKET names nothing) is an error in the log:
  /// under Type=notify systemd would kill the service without a word.
  @Test func aReadyThatCannotBeSentIsLogged() throws {
    let h = try H(
      config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0),
      options: { $0.environment["NOTIFY_SOCKET"] = "/nonexistent/notify.sock" })
    #expect(h.log.contains("cannot tell systemd the service is ready"), "\(h.log)")
  }

  /// A state directory that cannot be looked at is not taken for a safe one.
  @Test func aStateDirectoryThatCannotBeCheckedIsRefused() throws {
    let dir = H.tempDirectory()
    defer { _ = system("rm -rf '\(dir)'") }
    symlink(dir + "/b", dir + "/a")
    symlink(dir + "/a", dir + "/b")
    #expect(throws: UnsafePathError.self) {
      try PathSafety.checkDirectory(dir + "/a", role: "the state directory")
    }
    try PathSafety.checkDirectory(dir + "/absent", role: "the state directory")
  }

  /// The hourly days-off check is armed only while a calendar is in force.
  @Test func theCalendarTimerIsArmedOnlyWithACalendar() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0))
    #expect(!h.service.calendars.checksWindow)
    let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nEND:VCALENDAR\r\n"
    try H.write(calendar, to: h.dir + "/off.ics")
    try H.write(
      H.config(H.alarm("wake", "07:00") + "skip_calendars = [\"off.ics\"]\n"), to: h.configPath)
    try h.turn { h.service.calendars.checksWindow }
    try H.write(H.config(H.alarm("wake", "07:00")), to: h.configPath)
    try h.turn { !h.service.calendars.checksWindow }
  }
}
