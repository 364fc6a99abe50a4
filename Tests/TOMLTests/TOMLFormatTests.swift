import Testing

@testable import TOML

@Suite struct TOMLFormatTests {
  @Test func quotedRoundTrips() throws {
    let samples = [
      "", "plain", "with \"quotes\" and \\ backslash", "tab\tnewline\nreturn\r",
      "\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}", "unicode é ☀ 😀", "'single'", "#not a comment",
    ]
    for s in samples {
      let text = "v = " + TOMLFormat.quoted(s)
      #expect(try TOMLParser.parse(text).root["v"] == .string(s), "\(text)")
    }
    #expect(TOMLFormat.quoted("a\"b\n\u{1}") == #""a\"b\n\u0001""#)
  }

  @Test func keys() {
    #expect(TOMLFormat.key("bare_key-1") == "bare_key-1")
    #expect(TOMLFormat.key("") == #""""#)
    #expect(TOMLFormat.key("a.b") == #""a.b""#)
    #expect(TOMLFormat.key("ключ") == #""ключ""#)
    #expect(TOMLFormat.keyPath(["alarm", "wake up"]) == #"alarm."wake up""#)
  }

  @Test func datesAndTimes() {
    let date = TOMLLocalDate(year: 987, month: 5, day: 7)
    let time = TOMLLocalTime(hour: 7, minute: 3, second: 9, nanosecond: 120_000_000)
    #expect(TOMLFormat.date(date) == "0987-05-07")
    #expect(TOMLFormat.time(TOMLLocalTime(hour: 6, minute: 45, second: 0)) == "06:45:00")
    #expect(TOMLFormat.time(time) == "07:03:09.12")
    #expect(
      TOMLFormat.time(TOMLLocalTime(hour: 0, minute: 0, second: 0, nanosecond: 1))
        == "00:00:00.000000001")
    #expect(
      TOMLFormat.dateTime(TOMLLocalDateTime(date: date, time: time)) == "0987-05-07T07:03:09.12")
    #expect(
      TOMLFormat.offsetDateTime(TOMLOffsetDateTime(date: date, time: time, offsetMinutes: 0))
        == "0987-05-07T07:03:09.12Z")
    #expect(
      TOMLFormat.offsetDateTime(TOMLOffsetDateTime(date: date, time: time, offsetMinutes: -570))
        == "0987-05-07T07:03:09.12-09:30")
    #expect(TOMLFormat.offset(345) == "+05:45")
  }

  @Test func valuesRoundTrip() throws {
    let text = """
      s = "x\\ty"
      i = -42
      f = [1.5, -0.0, 1e+300, inf, -inf, 3.0]
      b = [true, false]
      odt = 1979-05-27T07:32:00.5-07:00
      ldt = 1979-05-27T07:32:00
      ld = 1979-05-27
      lt = 23:59:60
      t = { "a b" = 1, c = { d = [] } }
      """
    let d = try TOMLParser.parse(text)
    for entry in d.root.entries {
      // Values compare with their source ranges, so compare as text.
      let written = TOMLFormat.value(entry.node.value)
      let again = try TOMLParser.parse("v = " + written)
      #expect(again.root["v"].map(TOMLFormat.value) == written, "\(entry.key)")
    }
    #expect(
      TOMLFormat.value(lookup(d, "f") ?? .integer(0)) == "[1.5, -0.0, 1e+300, inf, -inf, 3.0]")
    #expect(
      try TOMLParser.parse("v = " + TOMLFormat.value(lookup(d, "odt") ?? .integer(0)))
        .root["v"] == lookup(d, "odt"))
    #expect(TOMLFormat.float(.nan) == "nan")
    #expect(TOMLFormat.float(100) == "100.0")
    #expect(TOMLFormat.value(.float(-.infinity)) == "-inf")
  }
}
