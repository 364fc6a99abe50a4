import AlarmCore
import Testing

@Suite struct TimePosixTZTests {
  @Test func berlinRules() throws {
    let z = try TimeZoneRules(identifier: "x", posix: "CET-1CEST,M3.5.0,M10.5.0/3")
    #expect(z.offset(at: utc("2031-03-30T00:59:59Z")) == 3600)
    #expect(z.offset(at: utc("2031-03-30T01:00:00Z")) == 7200)
    #expect(z.offset(at: utc("2031-10-26T00:59:59Z")) == 7200)
    #expect(z.offset(at: utc("2031-10-26T01:00:00Z")) == 3600)
    #expect(z.abbreviation(at: utc("2031-07-01T00:00:00Z")) == "CEST")
    #expect(z.text(z.wall("2031-03-30", "02:30")) == "2031-03-30T03:30:00+02:00")
  }

  @Test func southernHemisphereAndQuotedNames() throws {
    let z = try TimeZoneRules(identifier: "x", posix: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
    #expect(z.offset(at: utc("2030-01-01T00:00:00Z")) == 39600)
    #expect(z.offset(at: utc("2030-07-01T00:00:00Z")) == 37800)
    #expect(z.abbreviation(at: utc("2030-07-01T00:00:00Z")) == "+1030")
    #expect(z.text(z.wall("2030-10-06", "02:10")) == "2030-10-06T02:40:00+11:00")
  }

  @Test func version3TimesBeyondTheDay() throws {
    // Jerusalem: DST starts on the Friday before the last Sunday of March (Thursday 26:00).
    let il = try TimeZoneRules(identifier: "x", posix: "IST-2IDT,M3.4.4/26,M10.5.0")
    #expect(il.offset(at: utc("2027-03-25T23:59:59Z")) == 7200)
    #expect(il.offset(at: utc("2027-03-26T00:00:00Z")) == 10800)
    // Nuuk: negative transition times (-01:00 and 00:00 local, i.e. 01:00 UTC).
    let gl = try TimeZoneRules(identifier: "x", posix: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
    #expect(
      gl.transitions(from: utc("2027-01-01T00:00:00Z"), through: utc("2028-01-01T00:00:00Z"))
        == [utc("2027-03-28T01:00:00Z"), utc("2027-10-31T01:00:00Z")])
    let big = try TimeZoneRules(identifier: "x", posix: "AAA3BBB,M3.1.0/167,M10.1.0/-167")
    #expect(
      big.transitions(from: utc("2027-01-01T00:00:00Z"), through: utc("2028-01-01T00:00:00Z")).count
        == 2)
  }

  @Test func julianAndZeroBasedDays() throws {
    // J60 is always March 1; 59 (zero-based) is Feb 29 in a leap year.
    let j = try TimeZoneRules(identifier: "x", posix: "AAA0BBB,J60/0,J300/0")
    #expect(
      j.transitions(from: utc("2028-01-01T00:00:00Z"), through: utc("2028-06-01T00:00:00Z"))
        == [utc("2028-03-01T00:00:00Z")])
    let n = try TimeZoneRules(identifier: "x", posix: "AAA0BBB,59/0,300/0")
    #expect(
      n.transitions(from: utc("2028-01-01T00:00:00Z"), through: utc("2028-06-01T00:00:00Z"))
        == [utc("2028-02-29T00:00:00Z")])
    #expect(
      n.transitions(from: utc("2027-01-01T00:00:00Z"), through: utc("2027-06-01T00:00:00Z"))
        == [utc("2027-03-01T00:00:00Z")])
  }

  @Test func daylightAllYear() throws {
    let z = try TimeZoneRules(identifier: "x", posix: "EST5EDT,0/0,J365/25")
    for month in 1...12 {
      let i = utc("2030-\(month < 10 ? "0" : "")\(month)-15T12:00:00Z")
      #expect(z.offset(at: i) == -4 * 3600)
    }
    #expect(z.offset(at: utc("2031-01-01T02:00:00Z")) == -4 * 3600)
    #expect(
      z.transitions(from: utc("2030-01-01T00:00:00Z"), through: utc("2032-01-01T00:00:00Z")).isEmpty
    )
  }

  @Test func fixedAndDefaults() throws {
    let utc0 = try TimeZoneRules(identifier: "UTC", posix: "UTC0")
    #expect(utc0.offset(at: utc("2030-01-01T00:00:00Z")) == 0)
    let ist = try TimeZoneRules(identifier: "x", posix: "<+0530>-5:30")
    #expect(ist.offset(at: Instant(seconds: 0)) == 19800)
    // No rule: glibc's default US rules; no DST offset: one hour ahead.
    let us = try TimeZoneRules(identifier: "x", posix: "EST5EDT")
    #expect(us.offset(at: utc("2030-07-01T00:00:00Z")) == -4 * 3600)
    #expect(us.offset(at: utc("2030-12-01T00:00:00Z")) == -5 * 3600)
  }

  @Test(arguments: [
    "", "C", "CET", "CET-1CEST,", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0",
    "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.7,M10.5.0", "CET-25", "<+1030-10:30",
    "<ab>1", "CET-1CEST,J0,J10", "CET-1CEST,366,1", "CET-1:60", "CET-1CEST,M3.5.0/168,M10.5.0",
    "CET-1 junk", "Europe/Berlin",
  ])
  func rejectsMalformedStrings(text: String) {
    #expect(throws: TimeZoneError.self) { try TimeZoneRules(identifier: "x", posix: text) }
  }

  @Test func errorsSayWhereAndWhy() {
    do {
      _ = try TimeZoneRules(identifier: "x", posix: "CET-1CEST,M13.5.0,M10.5.0")
      Issue.record("accepted")
    } catch {
      #expect(error.message.contains("character 18"))
      #expect(error.message.contains("m in 1...12"))
    }
  }
}
