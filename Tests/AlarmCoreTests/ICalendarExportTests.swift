import AlarmCore
import Testing

/// Real exports, written the way the big calendar programs write them
/// (Tests/Fixtures/icalendar), read for their days off.
@Suite struct ICalendarExportTests {
  func daysOff(_ name: String, _ first: String, _ last: String) throws -> [LocalDate: String] {
    let file = try ICalendarFixtures.parse(name)
    #expect(file.warnings.map(\.description) == [])
    return file.daysOff(from: day(first), through: day(last))
  }

  @Test func googleHolidayFeed() throws {
    let file = try ICalendarFixtures.parse("google-us-holidays.ics")
    #expect(file.events.count == 51)
    let days = file.daysOff(from: day("2027-01-01"), through: day("2027-12-31"))
    #expect(days.count == 11)
    #expect(days[day("2027-11-25")] == "Thanksgiving Day")
    #expect(days[day("2027-05-31")] == "Memorial Day")
    #expect(days[day("2027-07-04")] == "Independence Day")
    #expect(days[day("2027-07-05")] == "Independence Day (substitute day)")
    #expect(days[day("2027-12-24")] == "Christmas Eve")
    #expect(days[day("2027-12-26")] == nil)
  }

  @Test func appleCalendarVacationBirthdayAndTimedEvent() throws {
    let days = try daysOff("apple-family.ics", "2027-01-01", "2028-12-31")
    // DTEND is exclusive: 19 July up to and including 6 August.
    for offset in 0..<19 {
      #expect(days[day("2027-07-19").adding(days: offset)] == "Summer vacation, Baltic Sea")
    }
    #expect(days[day("2027-07-18")] == nil)
    #expect(days[day("2027-08-07")] == nil)
    #expect(days[day("2027-03-14")] == "Mia's birthday")
    #expect(days[day("2028-03-14")] == "Mia's birthday")
    // The VTIMEZONE's RRULEs are not events; the timed dinner is not a day off.
    #expect(days[day("2027-03-28")] == nil)
    #expect(days[day("2027-12-24")] == "School holidays (winter)")
    #expect(days[day("2028-01-02")] == "School holidays (winter)")
    #expect(days[day("2028-01-03")] == nil)
    #expect(days.count == 19 + 12 + 2)
  }

  @Test func outlookExchangeExport() throws {
    let days = try daysOff("outlook-company.ics", "2027-01-01", "2028-12-31")
    for date in ["2027-12-27", "2027-12-28", "2027-12-29", "2027-12-30"] {
      #expect(days[day(date)] == "Office closed (year-end)")
    }
    #expect(days[day("2027-01-29")] == "Focus Friday (no meetings)")
    #expect(days[day("2027-07-30")] == "Focus Friday (no meetings)")
    // Both at once on the last Friday of 2027, except the EXDATE removes that one.
    #expect(days[day("2027-12-31")] == "Office closed (year-end)")
    // The cancelled override takes the August instance away.
    #expect(days[day("2027-08-27")] == nil)
    #expect(days[day("2028-12-29")] == "Focus Friday (no meetings)")
    // The timed, recurring planning day is no day off.
    #expect(days[day("2027-04-05")] == nil)
  }

  @Test func thunderbirdRecurringHolidays() throws {
    let days = try daysOff("thunderbird-us.ics", "2025-01-01", "2029-12-31")
    #expect(days[day("2025-11-27")] == "Thanksgiving")
    #expect(days[day("2026-11-26")] == "Thanksgiving")
    #expect(days[day("2029-11-22")] == "Thanksgiving")
    // 2027's instance moved and stretched by a RECURRENCE-ID override.
    #expect(days[day("2027-11-24")] == "Thanksgiving (family trip)")
    #expect(days[day("2027-11-25")] == "Thanksgiving (family trip)")
    #expect(days[day("2027-11-26")] == "Thanksgiving (family trip)")
    #expect(days[day("2026-05-25")] == "Memorial Day")
    #expect(days[day("2027-05-31")] == "Memorial Day")
    #expect(days[day("2027-09-06")] == "Labor Day")
    #expect(days[day("2028-09-04")] == nil)  // EXDATE
    #expect(days[day("2027-12-03")] == nil)  // the timed dentist appointment
    #expect(days.count == 5 + 2 + 5 + 4)
  }

  @Test func confluenceUpdatedCopiesAndDeletedSeries() throws {
    let days = try daysOff("confluence-team.ics", "2027-01-01", "2027-12-31")
    #expect(
      days == [
        day("2027-01-04"): "Anna on leave", day("2027-01-05"): "Anna on leave",
        day("2027-01-06"): "Anna on leave", day("2027-01-07"): "Anna on leave",
        day("2027-01-08"): "Anna on leave",
        // The override (SEQUENCE 2) of the newest copy's 1 February instance.
        day("2027-02-02"): "Anna on leave (short week)",
        day("2027-02-03"): "Anna on leave (short week)",
        day("2027-02-04"): "Anna on leave (short week)",
        // CalendarLabs-style `RRULE:` (empty) and DTEND equal to DTSTART: one day.
        day("2027-05-10"): "Team offsite", day("2027-05-11"): "Team offsite",
      ])
  }

  @Test func malformedLinesAreWarnedWithTheirLines() throws {
    let file = try ICalendarFixtures.parse("malformed.ics")
    #expect(
      file.warnings.map(\.description) == [
        "4:1: warning: line has no ':' between a property name and its value, ignored",
        "9:1: warning: rrule freq=hourly is not supported on an all-day event; event 'Every hour' dropped",
        "15:1: warning: rrule part byweekno is not supported; event 'Week 20' dropped",
        "19:1: warning: dtstart '2027-12-24' is not a date; event 'Dashed date' dropped",
        "21:1: warning: event 'No start' has no dtstart; dropped",
        "28:1: warning: exdate '2027060' is not a date, ignored",
        "29:1: warning: rdate with value=period is not supported, ignored",
        "34:1: warning: duration 'one day' is not understood; event 'Bad duration' dropped",
        "36:1: warning: begin:vevent is not ended before end:vcalendar",
      ])
    #expect(
      file.warnings[0].formatted(path: "holidays.ics").hasPrefix("holidays.ics:4:1: warning: "))
    let days = file.daysOff(from: day("2027-01-01"), through: day("2027-12-31"))
    #expect(days == [day("2027-06-01"): "Good day", day("2027-09-01"): "Unclosed"])
  }
}
