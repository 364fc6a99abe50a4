import AlarmCore
import Testing

/// Content lines: line ends, folding, BOM, parameters, escapes, components.
@Suite struct ICalendarReaderTests {
  static let event = """
    BEGIN:VCALENDAR
    BEGIN:VEVENT
    SUMMARY:Christmas Day
    DTSTART;VALUE=DATE:20271225
    END:VEVENT
    END:VCALENDAR

    """

  @Test func lineEndsAndBOMReadTheSame() {
    let lf = Array(Self.event.utf8)
    let crlf = Array(Self.event.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    let cr = Array(Self.event.replacingOccurrences(of: "\n", with: "\r").utf8)
    for bytes in [lf, crlf, cr, [0xEF, 0xBB, 0xBF] + crlf, Array(lf.dropLast())] {
      let file = ICalendarFile.parse(bytes)
      #expect(file.warnings == [])
      #expect(file.events.map(\.summary) == ["Christmas Day"])
      #expect(file.events.first?.start == day("2027-12-25"))
      #expect(file.events.first?.line == 2)
    }
  }

  @Test func foldingMaySplitAUTF8Sequence() {
    let e = Array("ê".utf8)
    var bytes = Array("BEGIN:VEVENT\r\nSUMMARY:F".utf8) + [e[0]] + Array("\r\n ".utf8) + [e[1]]
    bytes += Array("te nationale\r\n\tdu 14 juillet\r\nDTSTART;VALUE=DATE:2027\n 0714\r\n".utf8)
    bytes += Array("END:VEVENT\r\n".utf8)
    let file = ICalendarFile.parse(bytes)
    #expect(file.warnings == [])
    #expect(file.events.map(\.summary) == ["Fête nationaledu 14 juillet"])
    #expect(file.events.first?.start == day("2027-07-14"))
  }

  /// Old Mozilla exports put blank lines between a name and its folded value.
  @Test func blankLinesInsideAFoldAreSkipped() {
    let text =
      "BEGIN:VEVENT\nSUMMARY\n\n :Christmas Day\nDTSTART\r\n\r\n ;VALUE=DATE\n :20031225\n\nX:1\nEND:VEVENT\n"
    let file = ICalendarFile.parse(Array(text.utf8))
    #expect(file.warnings == [])
    #expect(file.events.map(\.summary) == ["Christmas Day"])
    #expect(file.events.first?.start == day("2003-12-25"))
    // Line numbers still count the blank lines.
    let bad = ICalendarFile.parse(Array("BEGIN:VEVENT\nX-A\n\n :1\n\nbroken\nEND:VEVENT\n".utf8))
    #expect(bad.warnings.contains { $0.description.hasPrefix("6:1: warning: line has no ':'") })
  }

  @Test func textEscapesAreUndone() {
    let file = ics(
      """
      BEGIN:VEVENT
      SUMMARY:Tom\\, Anna\\; and \\\\ the kids\\nat home\\N!
      DTSTART:20270101
      END:VEVENT
      """)
    #expect(file.events.first?.summary == "Tom, Anna; and \\ the kids\nat home\n!")
  }

  @Test func quotedParametersMayHoldColonsAndSemicolons() {
    let file = ics(
      """
      BEGIN:VEVENT
      ATTENDEE;CN="Doe; John: PhD";ROLE=REQ-PARTICIPANT:mailto:john@example.org
      SUMMARY;LANGUAGE=en;X-NOTE="a:b;c":Holiday: the real one
      DTSTART;X-ODD="20270101:x";VALUE=DATE:20270102
      END:VEVENT
      """)
    #expect(file.warnings == [])
    #expect(file.events.first?.summary == "Holiday: the real one")
    #expect(file.events.first?.start == day("2027-01-02"))
  }

  @Test func timedAndCancelledEventsAreNoDaysOff() {
    let file = ics(
      """
      BEGIN:VCALENDAR
      BEGIN:VEVENT
      SUMMARY:Meeting
      DTSTART;TZID=Europe/Berlin:20270104T090000
      DTEND;TZID=Europe/Berlin:20270104T100000
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Flight
      DTSTART:20270105T060000Z
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Called off
      STATUS:CANCELLED
      DTSTART;VALUE=DATE:20270106
      END:VEVENT
      END:VCALENDAR
      """)
    #expect(file.warnings == [])
    #expect(file.events == [])
  }

  @Test func alarmsAndTimeZonesAreSteppedOver() {
    let file = ics(
      """
      BEGIN:VCALENDAR
      BEGIN:VTIMEZONE
      TZID:Europe/Berlin
      BEGIN:STANDARD
      DTSTART:19701025T030000
      RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
      END:STANDARD
      END:VTIMEZONE
      BEGIN:VEVENT
      SUMMARY:Day off
      DTSTART;VALUE=DATE:20270301
      BEGIN:VALARM
      ACTION:DISPLAY
      DESCRIPTION:Reminder
      TRIGGER;VALUE=DATE-TIME:20270228T180000Z
      DTSTART;VALUE=DATE:19990101
      END:VALARM
      END:VEVENT
      END:VCALENDAR
      """)
    #expect(file.warnings == [])
    #expect(file.events.count == 1)
    #expect(file.events.first?.start == day("2027-03-01"))
    #expect(file.events.first?.rule == nil)
  }

  @Test func lengthFromDTENDOrDuration() {
    func length(_ lines: String) -> Int? {
      ics("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270101\n\(lines)\nEND:VEVENT").events.first?.length
    }
    #expect(length("DTEND;VALUE=DATE:20270102") == 1)
    #expect(length("DTEND;VALUE=DATE:20270115") == 14)
    #expect(length("DURATION:P1D") == 1)
    #expect(length("DURATION:P2W") == 14)
    #expect(length("DURATION:+P1DT12H") == 2)
    #expect(length("DURATION:PT0S") == 1)
    #expect(length("X-NONE:1") == 1)
    #expect(length("DTEND;VALUE=DATE:20270101") == 1)
  }

  @Test func badValuesAreWarnedAndNeverBecomeEveryDay() {
    let file = ics(
      """
      BEGIN:VEVENT
      SUMMARY:Backwards
      DTSTART;VALUE=DATE:20270110
      DTEND;VALUE=DATE:20270101
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Negative
      DTSTART;VALUE=DATE:20270110
      DURATION:-P1D
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Feb 30
      DTSTART;VALUE=DATE:20270230
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Date-time with value=date
      DTSTART;VALUE=DATE:20270101T000000
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Daily forever
      DTSTART;VALUE=DATE:20270101
      RRULE:FREQ=DAILY;BYYEARDAY=1
      END:VEVENT
      BEGIN:VEVENT
      SUMMARY:Nonsense rule
      DTSTART;VALUE=DATE:20270101
      RRULE:FREQ=MONTHLY;BYMONTHDAY=0
      END:VEVENT
      END:VEVENT
      """)
    #expect(
      file.warnings.map(\.description) == [
        "4:1: warning: dtend is before dtstart; event 'Backwards' counts one day",
        "9:1: warning: duration '-P1D' is not understood; event 'Negative' dropped",
        "13:1: warning: dtstart '20270230' is not a date; event 'Feb 30' dropped",
        "17:1: warning: dtstart '20270101T000000' is not a date; event 'Date-time with value=date' dropped",
        "22:1: warning: rrule part byyearday is not supported; event 'Daily forever' dropped",
        "27:1: warning: rrule bymonthday is not a list of days 1 to 31 or -31 to -1; event 'Nonsense rule' dropped",
        "29:1: warning: end:vevent without a matching begin, ignored",
      ])
    #expect(file.events.map(\.summary) == ["Backwards"])
  }

  @Test func garbageIsBoundedWarnings() {
    let garbage = (0..<5000).map { _ in UInt8.random(in: 0...255) }
    let file = ICalendarFile.parse(garbage + Array("\nno colon here\n".utf8))
    #expect(file.events == [])
    #expect(file.warnings.count <= 51)
    let lines = ICalendarFile.parse(Array(String(repeating: "x\n", count: 200).utf8))
    #expect(lines.warnings.count == 51)
    #expect(lines.warnings.last?.message == "150 more warnings not shown")
  }

  @Test func deepNestingIsCapped() {
    let text = String(repeating: "BEGIN:X\n", count: 40) + "BEGIN:VEVENT\nEND:VEVENT\n"
    let file = ics(text)
    #expect(
      file.warnings.first?.description == "33:1: warning: begin:x nested more than 32 deep, ignored"
    )
    #expect(file.warnings.count == 10)  // 8 x, the vevent, and its end:vevent
    #expect(file.events == [])
  }

  @Test func overrideRangesAreWarned() {
    let file = ics(
      """
      BEGIN:VEVENT
      UID:u
      SUMMARY:Weekly
      DTSTART;VALUE=DATE:20270104
      RRULE:FREQ=WEEKLY;COUNT=3
      END:VEVENT
      BEGIN:VEVENT
      UID:u
      RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20270111
      SUMMARY:Weekly (later)
      DTSTART;VALUE=DATE:20270112
      END:VEVENT
      """)
    #expect(
      file.warnings.map(\.description) == [
        "9:1: warning: recurrence-id with range is not supported; only that one instance is replaced"
      ])
    let days = file.daysOff(from: day("2027-01-01"), through: day("2027-01-31"))
    #expect(days.keys.sorted() == [day("2027-01-04"), day("2027-01-12"), day("2027-01-18")])
  }

  @Test func overrideOfAnUnknownMasterStandsAlone() {
    let file = ics(
      """
      BEGIN:VEVENT
      UID:lonely
      RECURRENCE-ID;VALUE=DATE:20270101
      SUMMARY:Moved
      DTSTART;VALUE=DATE:20270102
      END:VEVENT
      """)
    #expect(
      file.daysOff(from: day("2027-01-01"), through: day("2027-01-31")) == [
        day("2027-01-02"): "Moved"
      ])
  }
}
