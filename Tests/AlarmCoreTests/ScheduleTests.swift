import AlarmCore
import Testing

/// Repeating alarms, ordering, DST and calendar corners.
@Suite struct ScheduleTests {
  private func alarm(
    _ id: String, _ time: String, _ days: DaySet = .daily, date: String? = nil,
    enabled: Bool = true, skip: [String] = []
  ) -> Alarm {
    Alarm(
      id: id, time: clock(time), days: days, date: date.map(day), enabled: enabled,
      skip: Set(skip.map(day)))
  }

  private func texts(_ firings: [Firing], _ z: TimeZoneRules) -> [String] {
    firings.map { "\($0.alarmID) \(z.text($0.at))" }
  }

  @Test func weekdaysFollowTheLocalDate() throws {
    let berlin = try zone("Europe/Berlin")
    let s = Schedule(alarms: [alarm("work", "06:45", .weekdays)], zone: berlin)
    // Friday 2027-03-26 07:00 local.
    let from = berlin.wall("2027-03-26", "07:00")
    #expect(
      texts(s.upcoming(after: from, limit: 3, marks: .init()), berlin) == [
        "work 2027-03-29T06:45:00+02:00", "work 2027-03-30T06:45:00+02:00",
        "work 2027-03-31T06:45:00+02:00",
      ])
    // The local date, not the UTC date: 00:30 Monday in Tokyo is Sunday in UTC.
    let tokyo = try zone("Asia/Tokyo")
    let t = Schedule(alarms: [alarm("early", "00:30", DaySet([Weekday.monday]))], zone: tokyo)
    let f = try #require(t.next(after: utc("2027-03-27T00:00:00Z"), marks: .init()))
    #expect(tokyo.text(f.at) == "2027-03-29T00:30:00+09:00")
    #expect(f.date == day("2027-03-29"))
  }

  @Test func springGapRingsAfterTheGapAndFallOverlapRingsOnce() throws {
    let berlin = try zone("Europe/Berlin")
    let s = Schedule(alarms: [alarm("night", "02:30")], zone: berlin)
    let spring = s.upcoming(after: berlin.wall("2027-03-27", "12:00"), limit: 2, marks: .init())
    #expect(
      texts(spring, berlin) == [
        "night 2027-03-28T03:30:00+02:00", "night 2027-03-29T02:30:00+02:00",
      ])
    #expect(spring[0].time == clock("02:30"))
    let fall = s.upcoming(after: berlin.wall("2027-10-30", "12:00"), limit: 2, marks: .init())
    #expect(
      texts(fall, berlin) == [
        "night 2027-10-31T02:30:00+02:00", "night 2027-11-01T02:30:00+01:00",
      ])
    // Asking from between the two 02:30s does not ring the second one.
    let between = s.next(after: utc("2027-10-31T01:00:00Z"), marks: .init())
    #expect(between.map { berlin.text($0.at) } == "2027-11-01T02:30:00+01:00")
  }

  @Test func zonesWithUnusualRules() throws {
    let cases: [(String, String, String, String)] = [
      ("Australia/Lord_Howe", "02:15", "2027-10-02", "2027-10-03T02:45:00+11:00"),
      ("Australia/Lord_Howe", "01:45", "2027-04-03", "2027-04-04T01:45:00+11:00"),
      ("Pacific/Chatham", "03:00", "2027-09-25", "2027-09-26T04:00:00+13:45"),
      ("America/Santiago", "00:15", "2027-09-04", "2027-09-05T01:15:00-03:00"),
      ("America/Santiago", "23:30", "2027-04-03", "2027-04-03T23:30:00-03:00"),
      ("America/New_York", "02:00", "2027-03-13", "2027-03-14T03:00:00-04:00"),
      ("Asia/Taipei", "00:30", "1979-06-30", "1979-07-01T01:30:00+09:00"),
      ("Asia/Pyongyang", "23:45", "2018-05-04", "2018-05-05T00:15:00+09:00"),
      ("Europe/Moscow", "02:30", "2011-03-26", "2011-03-27T03:30:00+04:00"),
    ]
    for (id, time, fromDay, expected) in cases {
      let z = try zone(id)
      let s = Schedule(alarms: [alarm("a", time)], zone: z)
      let first = s.upcoming(after: z.wall(fromDay, "12:00"), limit: 1, marks: .init())
      #expect(texts(first, z) == ["a \(expected)"], "\(id)")
    }
  }

  @Test func aZoneSkippingADayRingsOnce() throws {
    let apia = try zone("Pacific/Apia")
    let s = Schedule(alarms: [alarm("a", "07:00")], zone: apia)
    let got = s.upcoming(after: apia.wall("2011-12-28", "12:00"), limit: 3, marks: .init())
    #expect(
      texts(got, apia) == [
        "a 2011-12-29T07:00:00-10:00", "a 2011-12-31T07:00:00+14:00", "a 2012-01-01T07:00:00+14:00",
      ])
    let range = s.firings(
      after: apia.wall("2011-12-28", "12:00"), through: apia.wall("2012-01-01", "12:00"),
      marks: .init())
    #expect(range == got)
  }

  @Test func leapDaysAndYearEnds() throws {
    let ny = try zone("America/New_York")
    let leap = Schedule(alarms: [alarm("leap", "08:00", .never, date: "2028-02-29")], zone: ny)
    #expect(
      texts(leap.upcoming(after: utc("2027-06-01T00:00:00Z"), limit: 5, marks: .init()), ny)
        == ["leap 2028-02-29T08:00:00-05:00"])
    let tue = Schedule(alarms: [alarm("tue", "08:00", DaySet([Weekday.tuesday]))], zone: ny)
    let t = tue.upcoming(after: ny.wall("2028-02-27", "00:00"), limit: 2, marks: .init())
    #expect(t.map(\.date) == [day("2028-02-29"), day("2028-03-07")])
    let eve = Schedule(alarms: [alarm("eve", "23:59:30")], zone: ny)
    let e = eve.upcoming(after: ny.wall("2027-12-31", "12:00"), limit: 2, marks: .init())
    #expect(texts(e, ny) == ["eve 2027-12-31T23:59:30-05:00", "eve 2028-01-01T23:59:30-05:00"])
    let midnight = Schedule(alarms: [alarm("m", "00:00")], zone: ny)
    let m = midnight.next(after: ny.wall("2027-12-31", "23:59:59"), marks: .init())
    #expect(m.map { ny.text($0.at) } == "2028-01-01T00:00:00-05:00")
  }

  @Test func farFutureUsesTheFooter() throws {
    let berlin = try zone("Europe/Berlin")
    let s = Schedule(alarms: [alarm("a", "02:30", DaySet([Weekday.sunday]))], zone: berlin)
    let got = s.upcoming(after: berlin.wall("2100-03-20", "00:00"), limit: 2, marks: .init())
    #expect(texts(got, berlin) == ["a 2100-03-21T02:30:00+01:00", "a 2100-03-28T03:30:00+02:00"])
  }

  @Test func skipDatesAndSkipNext() throws {
    let berlin = try zone("Europe/Berlin")
    let a = alarm("work", "06:45", .weekdays, skip: ["2027-04-02", "2027-04-05"])
    let s = Schedule(alarms: [a], zone: berlin)
    let from = berlin.wall("2027-04-01", "07:00")
    #expect(
      s.upcoming(after: from, limit: 2, marks: .init()).map(\.date)
        == [day("2027-04-06"), day("2027-04-07")])
    let marks = ScheduleMarks(skipNext: ["work": day("2027-04-06")])
    #expect(
      s.upcoming(after: from, limit: 2, marks: marks).map(\.date)
        == [day("2027-04-07"), day("2027-04-08")])
    #expect(s.next(of: "work", after: from, marks: marks)?.date == day("2027-04-07"))
    // A stale skip-next date (already past) changes nothing.
    let stale = ScheduleMarks(skipNext: ["work": day("2027-03-01")])
    #expect(s.next(of: "work", after: from, marks: stale)?.date == day("2027-04-06"))
  }

  @Test func disabledAndNeverRepeatingAlarms() throws {
    let s = Schedule(
      alarms: [alarm("off", "06:00", enabled: false), alarm("on", "07:00")], zone: .utc)
    #expect(s.alarms.map(\.id) == ["on"])
    #expect(s.next(of: "off", after: Instant(seconds: 0), marks: .init()) == nil)
    #expect(s.next(of: "nope", after: Instant(seconds: 0), marks: .init()) == nil)
    #expect(
      s.upcoming(after: Instant(seconds: 0), limit: 3, marks: .init()).allSatisfy {
        $0.alarmID == "on"
      })
    #expect(
      Schedule(alarms: [], zone: .utc).next(after: Instant(seconds: 0), marks: .init()) == nil)
    #expect(s.upcoming(after: Instant(seconds: 0), limit: 0, marks: .init()).isEmpty)
  }

  @Test func orderByInstantThenID() throws {
    let z = try zone("Europe/Berlin")
    let s = Schedule(
      alarms: [
        alarm("c", "07:00"), alarm("b", "07:00"), alarm("a", "07:00:01"), alarm("d", "06:59"),
        alarm("gap", "02:30"), alarm("after-gap", "03:30"),
      ], zone: z)
    let got = s.upcoming(after: z.wall("2027-03-28", "00:00"), limit: 6, marks: .init())
    #expect(got.map(\.alarmID) == ["after-gap", "gap", "d", "b", "c", "a"])
    let range = s.firings(
      after: z.wall("2027-03-28", "00:00"), through: z.wall("2027-03-29", "00:00"), marks: .init())
    #expect(range == got)
    #expect(s.next(after: z.wall("2027-03-28", "00:00"), marks: .init()) == got.first)
    // `after` is exclusive, `through` inclusive.
    let at = got[2].at
    #expect(s.firings(after: at, through: at, marks: .init()).isEmpty)
    #expect(
      s.firings(after: Instant(seconds: at.seconds - 1), through: at, marks: .init()).map(\.alarmID)
        == ["d"])
    #expect(s.next(after: at, marks: .init())?.alarmID == "b")
  }

  @Test func tenThousandAlarmsMergeCorrectly() throws {
    let z = try zone("America/New_York")
    var rng = SplitMix(seed: 7)
    var alarms: [Alarm] = []
    for i in 0..<10_000 {
      let time = LocalTime(secondsOfDay: Int(rng.next() % 86400))
      let days = DaySet(rawValue: UInt8(1 + rng.next() % 127))
      alarms.append(Alarm(id: "a\(i)", time: time, days: days, enabled: rng.next() % 10 != 0))
    }
    let s = Schedule(alarms: alarms, zone: z)
    let from = z.wall("2027-03-13", "18:00")
    let got = s.upcoming(after: from, limit: 100, marks: .init())
    #expect(got.count == 100)
    // Same answer as the brute force: every alarm's next few firings, sorted.
    var all: [Firing] = []
    for a in s.alarms {
      let single = Schedule(alarms: [a], zone: z)
      var t = from
      for _ in 0..<3 {
        guard let f = single.next(after: t, marks: .init()) else { break }
        all.append(f)
        t = f.at
      }
    }
    all.sort { $0.at != $1.at ? $0.at < $1.at : $0.alarmID < $1.alarmID }
    #expect(got == Array(all.prefix(100)))
    #expect(
      got.allSatisfy { $0.at > from && z.local(at: $0.at).date == $0.date || $0.time.hour == 2 })
    #expect(s.firings(after: from, through: got[99].at, marks: .init()) == got)
  }
}
