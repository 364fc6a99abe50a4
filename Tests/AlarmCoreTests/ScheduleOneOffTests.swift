import AlarmCore
import Testing

/// One-off alarms: with and without a date, armed, done, re-armed by an edit.
@Suite struct ScheduleOneOffTests {
  let berlin: TimeZoneRules

  init() throws { berlin = try zone("Europe/Berlin") }

  private func oneOff(_ id: String, _ time: String, date: String? = nil) -> Alarm {
    Alarm(id: id, time: clock(time), days: .never, date: date.map(day))
  }

  @Test func withADateRingsOnceOnThatDay() {
    let a = oneOff("dentist", "09:15", date: "2027-05-04")
    let s = Schedule(alarms: [a], zone: berlin)
    let got = s.upcoming(after: berlin.wall("2027-05-01", "00:00"), limit: 5, marks: .init())
    #expect(got.map { berlin.text($0.at) } == ["2027-05-04T09:15:00+02:00"])
    #expect(s.next(after: berlin.wall("2027-05-04", "09:15"), marks: .init()) == nil)
    // Done with a matching fingerprint: never again.
    let done = OneOffMark(
      armedAt: utc("2027-04-01T00:00:00Z"), doneAt: utc("2027-05-04T07:15:00Z"),
      fingerprint: OneOffMark.fingerprint(of: a))
    let marks = ScheduleMarks(oneOffs: ["dentist": done])
    #expect(s.next(after: berlin.wall("2027-05-01", "00:00"), marks: marks) == nil)
    // Edited (another time): the old mark no longer applies, it rings at the new time.
    var edited = a
    edited.time = clock("10:00")
    let s2 = Schedule(alarms: [edited], zone: berlin)
    #expect(
      s2.next(after: berlin.wall("2027-05-01", "00:00"), marks: marks).map { berlin.text($0.at) }
        == "2027-05-04T10:00:00+02:00")
    // A skip date or skip-next on that day cancels it.
    var skipped = a
    skipped.skip = [day("2027-05-04")]
    #expect(
      Schedule(alarms: [skipped], zone: berlin).next(after: Instant(seconds: 0), marks: .init())
        == nil)
    #expect(
      s.next(after: Instant(seconds: 0), marks: .init(skipNext: ["dentist": day("2027-05-04")]))
        == nil)
  }

  @Test func withoutADateRingsAtTheNextOccurrenceAfterArming() {
    let a = oneOff("nap", "14:00")
    let s = Schedule(alarms: [a], zone: berlin)
    // No mark: armed at the query instant.
    let morning = berlin.wall("2027-06-10", "09:00")
    #expect(
      s.upcoming(after: morning, limit: 3, marks: .init()).map { berlin.text($0.at) }
        == ["2027-06-10T14:00:00+02:00"])
    let evening = berlin.wall("2027-06-10", "15:00")
    #expect(
      s.next(after: evening, marks: .init()).map { berlin.text($0.at) }
        == "2027-06-11T14:00:00+02:00")
    // Armed yesterday evening: today's 14:00 is the one, also when asked at noon.
    let fp = OneOffMark.fingerprint(of: a)
    let armed = ScheduleMarks(oneOffs: [
      "nap": OneOffMark(armedAt: berlin.wall("2027-06-09", "20:00"), fingerprint: fp)
    ])
    #expect(
      s.next(after: berlin.wall("2027-06-10", "12:00"), marks: armed)?.date == day("2027-06-10"))
    // Its occurrence is past (missed): not upcoming, and not moved to tomorrow.
    #expect(s.next(after: evening, marks: armed) == nil)
    // Done: never again.
    let done = ScheduleMarks(oneOffs: [
      "nap": OneOffMark(
        armedAt: morning, doneAt: berlin.wall("2027-06-10", "14:00"), fingerprint: fp)
    ])
    #expect(s.upcoming(after: morning, limit: 3, marks: done).isEmpty)
    #expect(s.next(of: "nap", after: morning, marks: done) == nil)
    // Done under an old fingerprint (it was edited and re-enabled): armed afresh.
    let stale = ScheduleMarks(oneOffs: [
      "nap": OneOffMark(armedAt: morning, doneAt: morning, fingerprint: "13:00|-")
    ])
    #expect(s.next(of: "nap", after: evening, marks: stale)?.date == day("2027-06-11"))
  }

  @Test func withoutADateHonoursSkips() {
    var a = oneOff("nap", "14:00")
    a.skip = [day("2027-06-10")]
    let s = Schedule(alarms: [a], zone: berlin)
    let morning = berlin.wall("2027-06-10", "09:00")
    #expect(s.next(after: morning, marks: .init())?.date == day("2027-06-11"))
    let marks = ScheduleMarks(skipNext: ["nap": day("2027-06-11")])
    #expect(s.next(after: morning, marks: marks)?.date == day("2027-06-12"))
  }

  @Test func withoutADateInAGap() {
    let s = Schedule(alarms: [oneOff("x", "02:30")], zone: berlin)
    let f = s.next(after: berlin.wall("2027-03-28", "00:00"), marks: .init())
    #expect(f.map { berlin.text($0.at) } == "2027-03-28T03:30:00+02:00")
    // Armed at 03:00 CEST, after the gap's mapped instant: tomorrow's.
    let late = s.next(after: berlin.wall("2027-03-28", "03:40"), marks: .init())
    #expect(late.map { berlin.text($0.at) } == "2027-03-29T02:30:00+02:00")
  }

  @Test func oneOffsMixWithRepeatingAlarms() {
    let s = Schedule(
      alarms: [
        oneOff("once", "07:00", date: "2027-06-11"), oneOff("nap", "14:00"),
        Alarm(id: "daily", time: clock("07:00"), days: .daily),
      ], zone: berlin)
    let got = s.upcoming(after: berlin.wall("2027-06-10", "08:00"), limit: 5, marks: .init())
    #expect(got.map(\.alarmID) == ["nap", "daily", "once", "daily", "daily"])
  }
}
