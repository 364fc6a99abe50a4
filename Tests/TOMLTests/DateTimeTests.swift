import Testing

@testable import TOML

@Suite struct DateTimeTests {
  let date = TOMLLocalDate(year: 1979, month: 5, day: 27)

  @Test func offsetDateTimes() {
    let t = TOMLLocalTime(hour: 7, minute: 32, second: 0)
    #expect(
      value("1979-05-27T07:32:00Z")
        == .offsetDateTime(TOMLOffsetDateTime(date: date, time: t, offsetMinutes: 0)))
    #expect(
      value("1979-05-27t07:32:00z")
        == .offsetDateTime(TOMLOffsetDateTime(date: date, time: t, offsetMinutes: 0)))
    #expect(
      value("1979-05-27 07:32:00Z")
        == .offsetDateTime(TOMLOffsetDateTime(date: date, time: t, offsetMinutes: 0)))
    #expect(
      value("1979-05-27T00:32:00-07:00")
        == .offsetDateTime(
          TOMLOffsetDateTime(
            date: date, time: TOMLLocalTime(hour: 0, minute: 32, second: 0), offsetMinutes: -420)))
    #expect(
      value("1979-05-27T00:32:00.999999-07:00")
        == .offsetDateTime(
          TOMLOffsetDateTime(
            date: date,
            time: TOMLLocalTime(hour: 0, minute: 32, second: 0, nanosecond: 999_999_000),
            offsetMinutes: -420)))
    #expect(
      value("2001-01-01T00:00:00+05:45")
        == .offsetDateTime(
          TOMLOffsetDateTime(
            date: TOMLLocalDate(year: 2001, month: 1, day: 1),
            time: TOMLLocalTime(hour: 0, minute: 0, second: 0), offsetMinutes: 345)))
  }

  @Test func localDateTimes() {
    #expect(
      value("1979-05-27T07:32:00")
        == .localDateTime(
          TOMLLocalDateTime(date: date, time: TOMLLocalTime(hour: 7, minute: 32, second: 0))))
    #expect(
      value("1979-05-27T00:32:00.999999")
        == .localDateTime(
          TOMLLocalDateTime(
            date: date, time: TOMLLocalTime(hour: 0, minute: 32, second: 0, nanosecond: 999_999_000)
          )))
    #expect(
      value("1979-05-27 07:32:00")
        == .localDateTime(
          TOMLLocalDateTime(date: date, time: TOMLLocalTime(hour: 7, minute: 32, second: 0))))
  }

  @Test func localDatesAndTimes() {
    #expect(value("1979-05-27") == .localDate(date))
    #expect(value("07:32:00") == .localTime(TOMLLocalTime(hour: 7, minute: 32, second: 0)))
    #expect(
      value("00:32:00.999999")
        == .localTime(TOMLLocalTime(hour: 0, minute: 32, second: 0, nanosecond: 999_999_000)))
    #expect(
      value("23:59:59.5")
        == .localTime(TOMLLocalTime(hour: 23, minute: 59, second: 59, nanosecond: 500_000_000)))
    // A date followed by a space and a comment is still just a date.
    #expect(parse("d = 1979-05-27 # birthday")?.root["d"] == .localDate(date))
  }

  @Test func fractionsFinerThanNanosecondsAreTruncated() {
    #expect(
      value("00:00:00.1234567891")
        == .localTime(TOMLLocalTime(hour: 0, minute: 0, second: 0, nanosecond: 123_456_789)))
    #expect(
      value("00:00:00.9999999999")
        == .localTime(TOMLLocalTime(hour: 0, minute: 0, second: 0, nanosecond: 999_999_999)))
  }

  @Test func daysPerMonthAndLeapYears() {
    #expect(value("2000-02-29") == .localDate(TOMLLocalDate(year: 2000, month: 2, day: 29)))
    #expect(value("2024-02-29") == .localDate(TOMLLocalDate(year: 2024, month: 2, day: 29)))
    #expect(value("2023-04-30") == .localDate(TOMLLocalDate(year: 2023, month: 4, day: 30)))
    #expect(value("2023-12-31") == .localDate(TOMLLocalDate(year: 2023, month: 12, day: 31)))
    #expect(value("0000-01-01") == .localDate(TOMLLocalDate(year: 0, month: 1, day: 1)))
    expectError("v = 1900-02-29", at: 1, 13, "day 29 is out of range for 1900-02 (01-28)")
    expectError("v = 2023-02-29", at: 1, 13, "day 29 is out of range")
    expectError("v = 2024-02-30", at: 1, 13, "day 30 is out of range for 2024-02 (01-29)")
    expectError("v = 2023-04-31", at: 1, 13, "(01-30)")
    expectError("v = 2023-01-32", at: 1, 13, "(01-31)")
    expectError("v = 2023-01-00", at: 1, 13, "day 0 is out of range")
    expectError("v = 2023-13-01", at: 1, 10, "month 13 is out of range (01-12)")
    expectError("v = 2023-00-01", at: 1, 10, "month 0 is out of range")
  }

  @Test func timeRanges() {
    // RFC 3339 allows a leap second.
    #expect(value("23:59:60") == .localTime(TOMLLocalTime(hour: 23, minute: 59, second: 60)))
    expectError("v = 24:00:00", at: 1, 5, "hour 24 is out of range (00-23)")
    expectError("v = 12:60:00", at: 1, 8, "minute 60 is out of range (00-59)")
    expectError("v = 12:00:61", at: 1, 11, "second 61 is out of range (00-60)")
    expectError("v = 1979-05-27T07:32:00+24:00", at: 1, 25, "offset hour 24 is out of range")
    expectError("v = 1979-05-27T07:32:00+01:60", at: 1, 28, "offset minute 60 is out of range")
  }

  @Test func malformedDateTimes() {
    expectError("v = 1979-05-27T07:32", at: 1, 21, "requires seconds")
    expectError("v = 07:32", at: 1, 10, "requires seconds")
    expectError("v = 1979-5-27", at: 1, 11, "expected 2 digits for the month, found '-'")
    expectError("v = 1979-05-7", at: 1, 14, "expected 2 digits for the day, found end of file")
    expectError("v = 1979-05-27T", at: 1, 16, "expected a time after the date's 'T'")
    expectError("v = 1979-05-27T7:32:00", at: 1, 17, "expected 2 digits for the hour, found ':'")
    expectError("v = 1979-05-27T07:32:00.", at: 1, 25, "expected digits after the decimal point")
    expectError("v = 1979-05-27T07:32:00.Z", at: 1, 25, "expected digits")
    expectError("v = 1979-05-27T07:32:00+07", at: 1, 27, "expected ':' between the offset's hours")
    expectError("v = 1979-05-27T07:32:00+7:00", at: 1, 26, "expected 2 digits for the offset hour")
    expectError("v = 1979-05-27T07:32:00-07:0", at: 1, 29, "offset minute, found end of file")
    expectError(
      "v = 1979-05-27T07:32:00x", at: 1, 24, "expected a newline after a value, found 'x'")
    expectError("v = 10000-01-01", at: 1, 10, "expected a newline after a value, found '-'")
    expectError("v = 1979-05-27_07:32:00", at: 1, 15, "expected a newline after a value")
    expectError("v = 07:32:00Z", at: 1, 13, "expected a newline after a value, found 'Z'")
    expectError("v = 1979-05-27 07:32:00 Z", at: 1, 25, "expected a newline")
  }
}
