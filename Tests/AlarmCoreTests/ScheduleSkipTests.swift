import AlarmCore
import Testing

/// `skip` ranges, `skip_calendars` days off and the reasons the schedule gives.
@Suite struct ScheduleSkipTests {
  private func weekdays(_ id: String = "work", skip: [String] = []) -> Alarm {
    Alarm(id: id, time: clock("06:45"), days: .weekdays, skip: Set(skip.map(day)))
  }

  private func holidays(_ alarm: inout Alarm) throws -> DaysOff {
    alarm.skipCalendars = ["/cal/us.ics"]
    let file = try ICalendarFixtures.parse("google-us-holidays.ics")
    return DaysOff(files: ["/cal/us.ics": file], today: day("2027-12-01"))
  }

  @Test func aHolidayFromTheCalendarIsSkippedWithItsSummary() throws {
    let berlin = try zone("Europe/Berlin")
    var work = weekdays()
    let daysOff = try holidays(&work)
    let s = Schedule(alarms: [work], zone: berlin, daysOff: daysOff)
    // Thursday 2027-12-23 after the alarm: Friday 24 (Christmas Eve) is off, then the weekend.
    let from = berlin.wall("2027-12-23", "07:00")
    let next = try #require(s.next(after: from, marks: .init()))
    #expect(next.date == day("2027-12-27"))
    #expect(
      s.skipped(of: "work", after: from, marks: .init()) == [
        SkippedOccurrence(date: day("2027-12-24"), reason: .calendar("Christmas Eve"))
      ])
    #expect(
      AlarmText(.english).skippedLines(s.skipped(of: "work", after: from, marks: .init()))
        == ["skipped: Christmas Eve (2027-12-24)"])
    #expect(
      AlarmText(.traditionalChinese).skippedLines([
        SkippedOccurrence(date: day("2027-12-25"), reason: .calendar("聖誕節"))
      ]) == ["略過：聖誕節（2027-12-25）"])
  }

  @Test func aThreeWeekVacationDoesNotHideTheNextFiring() throws {
    let berlin = try zone("Europe/Berlin")
    var work = weekdays(skip: ["2027-08-16"])
    let vacation = DateRange(from: day("2027-07-19"), to: day("2027-08-08"))
    work.skipRanges = [vacation]
    let s = Schedule(alarms: [work], zone: berlin)
    let from = berlin.wall("2027-07-16", "12:00")
    let firings = s.upcoming(after: from, limit: 2, marks: .init())
    #expect(firings.map(\.date) == [day("2027-08-09"), day("2027-08-10")])
    let skipped = s.skipped(of: "work", after: from, marks: .init())
    #expect(skipped.count == 15)
    #expect(skipped.allSatisfy { $0.reason == .range(vacation) })
    #expect(
      AlarmText(.english).skippedLines(skipped) == ["skipped: vacation 2027-07-19..2027-08-08"])
    #expect(
      AlarmText(.traditionalChinese).skippedLines(skipped) == ["略過：休假 2027-07-19..2027-08-08"])
    // A single date says just the date.
    let after = berlin.wall("2027-08-13", "12:00")
    #expect(
      AlarmText(.english).skippedLines(s.skipped(of: "work", after: after, marks: .init()))
        == ["skipped: 2027-08-16"])
  }

  @Test func aCalendarCoveringEveryDayForYearsMeansNoFiringNotOneOnADayOff() throws {
    let berlin = try zone("Europe/Berlin")
    let always = ics(
      """
      BEGIN:VCALENDAR
      BEGIN:VEVENT
      DTSTART;VALUE=DATE:20200101
      RRULE:FREQ=DAILY
      SUMMARY:Always
      END:VEVENT
      END:VCALENDAR
      """)
    var daily = Alarm(id: "daily", time: clock("06:00"), days: .daily)
    daily.skipCalendars = ["/always.ics"]
    let daysOff = DaysOff(files: ["/always.ics": always], today: day("2027-01-10"))
    let s = Schedule(alarms: [daily], zone: berlin, daysOff: daysOff)
    // Past the table's window the calendar still covers every day: no firing on a day
    // off (it used to ring the day after the window), and the search ends.
    #expect(s.next(after: berlin.wall("2027-01-10", "12:00"), marks: .init()) == nil)
    #expect(daysOff.end == day("2028-02-14"))
    #expect(!daysOff.isStale(today: day("2027-07-10")))
    #expect(daysOff.isStale(today: day("2027-08-12")))
  }

  @Test func aRangeToTheEndOfTimeIsOneStepAndNeverRings() throws {
    let berlin = try zone("Europe/Berlin")
    var work = weekdays()
    work.skipRanges = [
      DateRange(from: day("2027-07-19"), to: day("2027-07-30")),
      DateRange(from: day("2027-08-02"), to: day("9999-12-31")),
    ]
    let s = Schedule(alarms: [work], zone: berlin)
    let from = berlin.wall("2027-07-16", "12:00")
    let clock = ContinuousClock()
    let started = clock.now
    #expect(s.next(after: from, marks: .init()) == nil)
    #expect(clock.now - started < .seconds(1))
    // The reasons stop at 60 (10 of the first range, 50 of the second).
    #expect(s.skipped(of: "work", after: from, marks: .init()).count == 60)
  }

  @Test func aSkippedOneOffDateIsSaid() throws {
    let berlin = try zone("Europe/Berlin")
    var once = Alarm(id: "once", time: clock("09:00"), date: day("2027-12-25"))
    let daysOff = try holidays(&once)
    let s = Schedule(alarms: [once], zone: berlin, daysOff: daysOff)
    let from = berlin.wall("2027-12-20", "09:00")
    #expect(s.next(after: from, marks: .init()) == nil)
    #expect(
      s.skipped(of: "once", after: from, marks: .init()).map(\.reason) == [
        .calendar("Christmas Day")
      ])
  }

  @Test func aSummaryIsMadeSafeForATerminal() {
    let line = AlarmText(.english).skippedLines([
      SkippedOccurrence(date: day("2027-01-01"), reason: .calendar("New\nYear\u{1B}[2J\u{202E}"))
    ])
    #expect(line == ["skipped: New Year\u{FFFD}[2J\u{FFFD} (2027-01-01)"])
  }
}

/// `skip` ranges and `skip_calendars` in real TOML text.
@Suite struct ConfigSkipTests {
  @Test func rangesAndCalendarsDecode() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        skip_calendars = ["holidays.ics", "/var/lib/cal/school.ics"]

        [[alarm]]
        id = "work"
        time = "06:45"
        days = "weekdays"
        skip = [2027-12-24, { from = 2027-07-19, to = 2027-07-30 }]

        [[alarm]]
        id = "gym"
        time = "07:00"
        skip_calendars = []
        """))
    let work = try #require(config.alarm(id: "work"))
    #expect(work.skip == [day("2027-12-24")])
    #expect(work.skipRanges == [DateRange(from: day("2027-07-19"), to: day("2027-07-30"))])
    #expect(
      work.skipCalendars == ["/etc/alarmclock/holidays.ics", "/var/lib/cal/school.ics"])
    #expect(config.alarm(id: "gym")?.skipCalendars == [])
    #expect(config.skipCalendarPositions["/etc/alarmclock/holidays.ics"]?.line == 2)
    #expect(config.skipCalendarPositions["/var/lib/cal/school.ics"]?.column == 35)
  }

  @Test func badRangesAreErrorsAtTheirLineAndColumn() {
    let text = """
      [[alarm]]
      time = "06:45"
      skip = [{ from = 2027-07-30, to = 2027-07-19 }, { form = 2027-01-01, to = 2027-01-02 }]
      skip_calendars = "holidays.ics"

      [[alarm]]
      time = "07:45"
      skip = [{ from = 3, to = "x" }, "soon", { from = 2027-01-01, to = 2027-01-01 }, { from = 2027-01-01, to = 2027-01-01 }]
      skip_calendars = ["", 4]
      """
    #expect(
      messages(text) == [
        "3:35: a 'skip' range ends (2027-07-19) before it starts (2027-07-30)",
        "3:49: a 'skip' range needs 'from' (e.g. { from = 2027-07-19, to = 2027-07-30 })",
        "3:51: unknown key 'form' in a 'skip' range; did you mean 'from'?",
        "4:18: 'skip_calendars' must be a list of iCalendar files like [\"holidays.ics\"], not a string",
        "8:18: 'from' must be a date like 2027-03-28, not an integer",
        "8:26: 'to' must be a date like 2027-03-28, not \"x\"",
        "8:33: 'skip' entries must be a date like 2027-12-24 or a range like "
          + "{ from = 2027-07-19, to = 2027-07-30 }, not \"soon\"",
        "8:81: warning: 'skip' lists the range 2027-01-01..2027-01-01 twice",
        "9:19: 'skip_calendars' entries must be non-empty strings, not an empty string",
        "9:23: 'skip_calendars' entries must be non-empty strings, not an integer",
      ])
  }
}
