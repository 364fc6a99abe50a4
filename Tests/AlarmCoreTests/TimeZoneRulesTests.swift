import AlarmCore
import Testing

@Suite struct TimeZoneRulesTests {
  @Test func berlinSpringGapTakesTheOffsetBeforeTheGap() throws {
    let berlin = try zone("Europe/Berlin")
    let at = berlin.wall("2027-03-28", "02:30")
    #expect(at == utc("2027-03-28T01:30:00Z"))
    #expect(berlin.text(at) == "2027-03-28T03:30:00+02:00")
    #expect(berlin.abbreviation(at: at) == "CEST")
    // Just around the gap: 01:59:59 CET and 03:00:00 CEST are one second apart.
    #expect(
      berlin.wall("2027-03-28", "01:59:59").seconds + 1
        == berlin.wall("2027-03-28", "03:00").seconds)
    #expect(berlin.wall("2027-03-28", "02:00") == utc("2027-03-28T01:00:00Z"))
  }

  @Test func berlinFallOverlapTakesTheFirstOccurrence() throws {
    let berlin = try zone("Europe/Berlin")
    let at = berlin.wall("2027-10-31", "02:30")
    #expect(at == utc("2027-10-31T00:30:00Z"))
    #expect(berlin.text(at) == "2027-10-31T02:30:00+02:00")
    // The second 02:30 (CET) exists, an hour later.
    #expect(berlin.text(utc("2027-10-31T01:30:00Z")) == "2027-10-31T02:30:00+01:00")
    #expect(berlin.wall("2027-10-31", "03:00") == utc("2027-10-31T02:00:00Z"))
    #expect(berlin.offset(at: utc("2027-01-15T12:00:00Z")) == 3600)
    #expect(berlin.abbreviation(at: utc("2027-01-15T12:00:00Z")) == "CET")
  }

  @Test func berlinTransitionsOfAYear() throws {
    let berlin = try zone("Europe/Berlin")
    let changes = berlin.transitions(
      from: utc("2027-01-01T00:00:00Z"), through: utc("2027-12-31T00:00:00Z"))
    #expect(changes == [utc("2027-03-28T01:00:00Z"), utc("2027-10-31T01:00:00Z")])
    // The far future comes from the POSIX footer.
    let far = berlin.transitions(
      from: utc("2100-01-01T00:00:00Z"), through: utc("2101-01-01T00:00:00Z"))
    #expect(far == [utc("2100-03-28T01:00:00Z"), utc("2100-10-31T01:00:00Z")])
    #expect(berlin.text(berlin.wall("2100-03-28", "02:30")) == "2100-03-28T03:30:00+02:00")
    #expect(berlin.text(berlin.wall("2345-07-01", "12:00")) == "2345-07-01T12:00:00+02:00")
  }

  @Test func newYork() throws {
    let ny = try zone("America/New_York")
    #expect(ny.text(ny.wall("2027-03-14", "02:30")) == "2027-03-14T03:30:00-04:00")
    #expect(ny.wall("2027-11-07", "01:30") == utc("2027-11-07T05:30:00Z"))
    #expect(ny.abbreviation(at: utc("2027-11-07T06:30:00Z")) == "EST")
    #expect(ny.text(ny.wall("2027-12-31", "23:59:59")) == "2027-12-31T23:59:59-05:00")
  }

  @Test func lordHoweHalfHourDST() throws {
    let lh = try zone("Australia/Lord_Howe")
    // Spring forward 02:00 -> 02:30 on the first Sunday of October.
    let gap = lh.wall("2027-10-03", "02:15")
    #expect(gap == utc("2027-10-02T15:45:00Z"))
    #expect(lh.text(gap) == "2027-10-03T02:45:00+11:00")
    #expect(lh.abbreviation(at: gap) == "+11")
    // Fall back 02:00 -> 01:30 on the first Sunday of April: 01:45 occurs twice.
    #expect(lh.wall("2027-04-04", "01:45") == utc("2027-04-03T14:45:00Z"))
    #expect(lh.text(utc("2027-04-03T15:15:00Z")) == "2027-04-04T01:45:00+10:30")
    #expect(lh.offset(at: utc("2027-06-01T00:00:00Z")) == 37800)
  }

  @Test func chatham() throws {
    let ch = try zone("Pacific/Chatham")
    #expect(ch.offset(at: utc("2027-06-01T00:00:00Z")) == 45900)
    #expect(ch.offset(at: utc("2027-12-01T00:00:00Z")) == 49500)
    #expect(ch.abbreviation(at: utc("2027-12-01T00:00:00Z")) == "+1345")
    // 02:45 -> 03:45 on 2027-09-26.
    #expect(ch.text(ch.wall("2027-09-26", "03:00")) == "2027-09-26T04:00:00+13:45")
    #expect(ch.wall("2027-04-04", "03:00") == utc("2027-04-03T13:15:00Z"))
  }

  @Test func santiagoChangesAtMidnight() throws {
    let scl = try zone("America/Santiago")
    // DST starts at 24:00 on the first Saturday of September: Sunday 00:xx does not exist.
    #expect(scl.text(scl.wall("2027-09-05", "00:30")) == "2027-09-05T01:30:00-03:00")
    #expect(scl.wall("2027-09-05", "00:00") == utc("2027-09-05T04:00:00Z"))
    // DST ends at 24:00 on the first Saturday of April: Saturday 23:xx occurs twice.
    #expect(scl.wall("2027-04-03", "23:30") == utc("2027-04-04T02:30:00Z"))
    #expect(scl.text(utc("2027-04-04T03:30:00Z")) == "2027-04-03T23:30:00-04:00")
    let far = scl.transitions(
      from: utc("2090-01-01T00:00:00Z"), through: utc("2091-01-01T00:00:00Z"))
    #expect(far.count == 2)
  }

  @Test func taipeiHistoricalDST() throws {
    let tpe = try zone("Asia/Taipei")
    #expect(tpe.offset(at: utc("2027-07-01T00:00:00Z")) == 28800)
    #expect(tpe.abbreviation(at: utc("2027-07-01T00:00:00Z")) == "CST")
    #expect(tpe.offset(at: utc("1979-08-01T00:00:00Z")) == 32400)
    #expect(tpe.abbreviation(at: utc("1979-08-01T00:00:00Z")) == "CDT")
    #expect(tpe.text(tpe.wall("1979-07-01", "00:30")) == "1979-07-01T01:30:00+09:00")
    #expect(
      tpe.transitions(from: utc("1980-01-01T00:00:00Z"), through: utc("2200-01-01T00:00:00Z"))
        .isEmpty)
  }

  @Test func apiaSkippedAWholeDay() throws {
    let apia = try zone("Pacific/Apia")
    // 2011-12-29 24:00 (-10) became 2011-12-31 00:00 (+14): the 30th never happened.
    #expect(apia.text(utc("2011-12-30T09:59:59Z")) == "2011-12-29T23:59:59-10:00")
    #expect(apia.text(utc("2011-12-30T10:00:00Z")) == "2011-12-31T00:00:00+14:00")
    let missing = apia.wall("2011-12-30", "07:00")
    #expect(missing == apia.wall("2011-12-31", "07:00"))
    #expect(apia.text(missing) == "2011-12-31T07:00:00+14:00")
  }

  @Test func standardOffsetChangesWithoutDST() throws {
    let pyongyang = try zone("Asia/Pyongyang")
    #expect(pyongyang.offset(at: utc("2015-08-14T14:59:59Z")) == 32400)
    #expect(pyongyang.offset(at: utc("2015-08-14T15:00:00Z")) == 30600)
    // 23:30-24:00 on 2015-08-14 occurred twice: first occurrence wins.
    #expect(pyongyang.wall("2015-08-14", "23:45") == utc("2015-08-14T14:45:00Z"))
    // 23:30-24:00 on 2018-05-04 was skipped.
    #expect(pyongyang.text(pyongyang.wall("2018-05-04", "23:40")) == "2018-05-05T00:10:00+09:00")
    let moscow = try zone("Europe/Moscow")
    #expect(moscow.offset(at: utc("2012-01-01T00:00:00Z")) == 14400)
    #expect(moscow.offset(at: utc("2012-07-01T00:00:00Z")) == 14400)
    #expect(moscow.offset(at: utc("2015-01-01T00:00:00Z")) == 10800)
    #expect(moscow.abbreviation(at: utc("2015-01-01T00:00:00Z")) == "MSK")
    let changes = moscow.transitions(
      from: utc("2011-01-01T00:00:00Z"), through: utc("2016-01-01T00:00:00Z"))
    #expect(changes == [utc("2011-03-26T23:00:00Z"), utc("2014-10-25T22:00:00Z")])
  }

  @Test(arguments: [
    ("Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"),
    ("America/New_York", "EST5EDT,M3.2.0,M11.1.0"),
    ("Australia/Lord_Howe", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"),
    ("Pacific/Chatham", "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45"),
    ("America/Santiago", "<-04>4<-03>,M9.1.6/24,M4.1.6/24"),
    ("Asia/Taipei", "CST-8"),
  ])
  func footerAgreesWithTheTable(identifier: String, posix: String) throws {
    let table = try zone(identifier)
    let rule = try TimeZoneRules(identifier: identifier, posix: posix)
    // Every 7 h 13 min from 2026 to the end of the table (2037).
    var t = utc("2026-01-01T00:00:00Z").seconds
    while t < utc("2037-12-01T00:00:00Z").seconds {
      let i = Instant(seconds: t)
      #expect(table.offset(at: i) == rule.offset(at: i), "\(identifier) at \(table.text(i))")
      #expect(table.abbreviation(at: i) == rule.abbreviation(at: i))
      t += 7 * 3600 + 13 * 60
    }
    let a = utc("2026-01-01T00:00:00Z")
    let b = utc("2037-12-01T00:00:00Z")
    #expect(table.transitions(from: a, through: b) == rule.transitions(from: a, through: b))
  }

  @Test func localAndInstantRoundTrip() throws {
    for id in ["Europe/Berlin", "Australia/Lord_Howe", "America/Santiago", "Pacific/Apia"] {
      let z = try zone(id)
      var t = utc("1990-01-01T00:00:00Z").seconds
      while t < utc("2060-01-01T00:00:00Z").seconds {
        let (date, time, offset) = z.local(at: Instant(seconds: t))
        #expect(offset == z.offset(at: Instant(seconds: t)))
        // Mapping the wall time back lands on this instant or an earlier
        // instant with the same wall time (the first occurrence).
        let back = z.instant(for: date, time)
        #expect(
          back.seconds <= t && (t - back.seconds) % 900 == 0 && t - back.seconds <= 3600,
          "\(id) \(date) \(time)")
        t += 86_399 * 3 + 1234
      }
    }
  }

  @Test func utcAndExtremes() {
    let z = TimeZoneRules.utc
    #expect(z.identifier == "UTC")
    #expect(z.offset(at: Instant(seconds: .max)) == 0)
    #expect(z.abbreviation(at: Instant(seconds: 0)) == "UTC")
    _ = z.local(at: Instant(seconds: .max))
    _ = z.local(at: Instant(seconds: .min))
    _ = z.instant(
      for: LocalDate(year: 1_000_000_000, month: 1, day: 1), LocalTime(hour: 0, minute: 0))
    #expect(z.transitions(from: Instant(seconds: .min), through: Instant(seconds: .max)).isEmpty)
  }
}
