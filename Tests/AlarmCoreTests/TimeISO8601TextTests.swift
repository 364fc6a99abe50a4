import AlarmCore
import Testing

@Suite struct TimeISO8601TextTests {
  @Test func formatsWithTheLocalOffset() throws {
    let berlin = try zone("Europe/Berlin")
    #expect(
      ISO8601Text.format(utc("2027-03-28T01:30:00Z"), in: berlin) == "2027-03-28T03:30:00+02:00")
    #expect(ISO8601Text.format(Instant(seconds: 0), in: .utc) == "1970-01-01T00:00:00+00:00")
    let ny = try zone("America/New_York")
    #expect(ISO8601Text.format(utc("2027-01-01T04:59:59Z"), in: ny) == "2026-12-31T23:59:59-05:00")
    let chatham = try zone("Pacific/Chatham")
    #expect(
      ISO8601Text.format(utc("2027-06-01T00:00:00Z"), in: chatham) == "2027-06-01T12:45:00+12:45")
    // Local mean time before 1893: an offset with seconds.
    #expect(
      ISO8601Text.format(utc("1890-01-01T00:00:00Z"), in: berlin) == "1890-01-01T00:53:28+00:53:28")
    #expect(
      ISO8601Text.parse("1890-01-01T00:53:28+00:53:28", in: .utc) == utc("1890-01-01T00:00:00Z"))
  }

  @Test func parsesEveryAcceptedForm() throws {
    let berlin = try zone("Europe/Berlin")
    let expected = utc("2027-03-28T04:45:00Z")
    #expect(ISO8601Text.parse("2027-03-28T06:45:00+02:00", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28T04:45:00Z", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28T06:45:00", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28T06:45", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28 06:45", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28T06:45:00.250+02:00", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28T01:45:00-0300", in: berlin) == expected)
    #expect(ISO8601Text.parse("2027-03-28", in: berlin) == utc("2027-03-27T23:00:00Z"))
    // A local time in the gap follows RFC 5545.
    #expect(ISO8601Text.parse("2027-03-28T02:30", in: berlin) == utc("2027-03-28T01:30:00Z"))
  }

  @Test(arguments: [
    "", "2027", "2027-3-28", "2027-02-30", "2027-03-28T", "2027-03-28T6:45", "2027-03-28T24:00",
    "2027-03-28T06:60", "2027-03-28T06:45:61", "2027-03-28T06:45:00+24:00", "2027-03-28T06:45Zx",
    "2027-03-28X06:45", "2027-03-28T06:45:00.", "2027-03-28T06:45:00+02", "２０２７-03-28",
  ])
  func rejects(text: String) {
    #expect(ISO8601Text.parse(text, in: .utc) == nil)
  }

  @Test func roundTrips() throws {
    for id in ["Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham", "America/Santiago"] {
      let z = try zone(id)
      var t = utc("2000-01-01T00:00:00Z").seconds
      while t < utc("2040-01-01T00:00:00Z").seconds {
        let text = ISO8601Text.format(Instant(seconds: t), in: z)
        #expect(ISO8601Text.parse(text, in: .utc) == Instant(seconds: t), "\(text)")
        t += 86400 * 5 + 3607
      }
    }
  }
}
