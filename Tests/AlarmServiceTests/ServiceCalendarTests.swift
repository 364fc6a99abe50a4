import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// `skip_calendars` in the running service: an edited calendar file changes the next
/// firing without a restart; an unreadable one keeps its last good version.
@Suite(.serialized) struct ServiceCalendarTests {
  typealias H = ServiceHarness

  /// An Outlook-style export (CRLF) with one all-day event on `day`, or none.
  static func calendar(_ day: String?) -> String {
    let event =
      day.map {
        "BEGIN:VEVENT\r\nUID:1@test\r\nDTSTART;VALUE=DATE:\($0)\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\n"
      } ?? ""
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\(event)END:VCALENDAR\r\n"
  }

  private func nextDate(_ h: H) -> LocalDate? {
    h.service.engine.upcoming(after: h.clock.now, count: 1).first?.date
  }

  @Test func editingTheCalendarMovesTheNextFiringWithoutARestart() throws {
    let alarm = H.alarm("wake", "07:00") + "skip_calendars = [\"days-off.ics\"]\n"
    let h = try H(
      config: H.config(alarm), at: H.at(6, 0),
      prepare: { h, dir in try h.write(Self.calendar(nil), to: dir + "/days-off.ics") })
    #expect(nextDate(h) == LocalDate(year: 2040, month: 1, day: 2))
    #expect(h.plan.deadline < H.at(7, 0))

    // Today becomes a holiday: the alarm moves to tomorrow.
    try H.write(Self.calendar("20400102"), to: h.dir + "/days-off.ics")
    try #require(
      try h.turn { nextDate(h) == LocalDate(year: 2040, month: 1, day: 3) },
      "the calendar edit was not seen:\n\(h.log)")
    #expect(h.log.contains("days-off.ics read again: 1 all-day events"))
    #expect(h.plan.deadline > H.at(7, 0))

    // An unreadable file keeps the last good version, also on reload.
    unlink(h.dir + "/days-off.ics")
    mkdir(h.dir + "/days-off.ics", 0o755)
    h.service.reloadConfig(reason: "test", force: true)
    #expect(h.log.contains("its last good version stays in force"))
    #expect(nextDate(h) == LocalDate(year: 2040, month: 1, day: 3))
  }

  @Test func aMissingCalendarIsAConfigErrorAndTheLastGoodConfigStays() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(6, 0))
    let edited = H.alarm("wake", "07:30") + "skip_calendars = [\"nowhere.ics\"]\n"
    try H.write(H.config(edited), to: h.configPath)
    try #require(try h.turn { !h.service.configs.errors.isEmpty }, "not seen:\n\(h.log)")
    #expect(h.service.configs.errors.contains { $0.contains("nowhere.ics': cannot open") })
    #expect(h.service.engine.alarms["wake"]?.time == LocalTime(hour: 7, minute: 0))
  }

  /// At start with a broken file, the last good copy (in the state directory) is used with
  /// its calendars found beside the config, not beside the copy.
  @Test func theLastGoodFallbackFindsItsCalendarsBesideTheConfig() throws {
    let good = H.config(H.alarm("wake", "07:00") + "skip_calendars = [\"days-off.ics\"]\n")
    let h = try H(
      config: good, at: H.at(6, 0),
      prepare: { h, dir in
        try h.write(Self.calendar("20400102"), to: dir + "/days-off.ics")
        mkdir(dir + "/state", 0o750)
        try h.write(good, to: dir + "/state/last-good.toml")
        try h.write("[[alarm]]\ntime = \"7 o'clock\"\n", to: dir + "/alarms.toml")
      })
    #expect(h.log.contains("ringing the last good config"), "\(h.log)")
    #expect(nextDate(h) == LocalDate(year: 2040, month: 1, day: 3))
  }

  /// The days-off table reaches 400 days ahead; a day off past it counts all the same
  /// (it used to ring: issue 24), and once the date passes the table's middle the
  /// hourly check rebuilds it.
  @Test func theWindowMovesOnceTheDatePassesItsMiddle() throws {
    let alarm =
      "\n[[alarm]]\nid = \"trip\"\ntime = \"07:00\"\ndate = 2041-02-10\n"
      + "skip_calendars = [\"days-off.ics\"]\n"
    let h = try H(
      config: H.config(alarm), at: H.at(6, 0),
      prepare: { h, dir in try h.write(Self.calendar("20410210"), to: dir + "/days-off.ics") })
    // 2041-02-10 is 405 days ahead: past the table, and still a day off.
    #expect(nextDate(h) == nil)
    h.service.calendarsChanged(reread: false)
    #expect(!h.log.contains("calendar days off renewed"))
    #expect(nextDate(h) == nil)
    // 210 days on, the hourly check renews the table and the day off is known.
    h.clock.now = H.at(6, 0) + .seconds(210 * 86_400)
    h.service.calendarsChanged(reread: false)
    #expect(h.log.contains("calendar days off renewed"))
    #expect(nextDate(h) == nil)
  }
}
