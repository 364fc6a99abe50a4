import AlarmCore
import Testing

/// Days off past the precomputed table (`DaysOff.aheadDays`): a long `next --from` range
/// sees them as the first days do (issue 24: alarms rang on the calendar's days off in
/// November 2027 when asked from 2026-09-01).
@Suite struct ICalendarHorizonTests {
  static let calendar = ics(
    """
    BEGIN:VCALENDAR
    BEGIN:VEVENT
    UID:thanksgiving
    DTSTART;VALUE=DATE:20261126
    RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH
    SUMMARY:Thanksgiving
    END:VEVENT
    BEGIN:VEVENT
    UID:offsite
    DTSTART;VALUE=DATE:20261015
    DURATION:P2D
    RRULE:FREQ=MONTHLY;INTERVAL=2;UNTIL=20280115
    EXDATE;VALUE=DATE:20270415
    SUMMARY:Off-site
    END:VEVENT
    END:VCALENDAR
    """)

  @Test func theTableAnswersPastItsWindow() {
    let table = ICalendarDaysOff(
      [Self.calendar], from: day("2026-08-31"), through: day("2027-10-05"))
    #expect(!table.covers(day("2027-11-25")))
    #expect(table.reason(on: day("2027-11-25")) == "Thanksgiving")
    #expect(table.reason(on: day("2027-12-16")) == "Off-site")
    #expect(table.reason(on: day("2027-12-17")) == nil)
    #expect(table.reason(on: day("2028-02-15")) == nil)  // past UNTIL
  }

  @Test func aLongRangeFromTheCommandLineSkipsEveryDayOff() throws {
    let taipei = try zone("Asia/Taipei")
    var work = Alarm(id: "work", time: clock("06:30"), days: .weekdays)
    work.skipCalendars = ["/cal.ics"]
    let daysOff = DaysOff(files: ["/cal.ics": Self.calendar], today: day("2026-09-01"))
    let s = Schedule(alarms: [work], zone: taipei, daysOff: daysOff)
    let firings = s.upcoming(after: taipei.wall("2026-09-01", "00:00"), limit: 400, marks: .init())
    let dates = Set(firings.map(\.date))
    #expect(try #require(firings.last?.date) > day("2028-01-31"))
    for off in ["2027-11-25", "2027-12-15", "2027-12-16", "2026-11-26", "2026-10-15"] {
      let rings = dates.contains(day(off))
      #expect(!rings, "rings on \(off), a day off")
    }
    for on in ["2027-11-26", "2027-12-17", "2027-04-15", "2028-01-17"] {
      let rings = dates.contains(day(on))
      #expect(rings, "does not ring on \(on)")
    }
  }

  /// Instances longer than the rule's period overlap; each day counts once, and the work
  /// stays linear in the window (a damaged copy of generated-calendars.ics with
  /// DURATION:P999999W on a weekly rule took minutes: instances times the window).
  @Test func overlappingInstancesOfAHugeDurationCostTheWindowOnly() {
    let file = ics(
      """
      BEGIN:VCALENDAR
      BEGIN:VEVENT
      DTSTART;VALUE=DATE:18000106
      DURATION:P999999W
      RRULE:FREQ=WEEKLY
      SUMMARY:Forever
      END:VEVENT
      END:VCALENDAR
      """)
    let days = file.daysOff(from: day("2026-01-01"), through: day("2027-12-31"))
    #expect(days.count == 730)
    #expect(days[day("2027-12-31")] == "Forever")
    // The quadratic walk added each day once per overlapping instance (about 12,000 times
    // 730): each day is one occurrence. Judged by the work's output, not by a clock.
    let occurrences = file.occurrences(from: day("2026-01-01"), through: day("2027-12-31"))
    #expect(occurrences.count == 730)
  }
}
