import AlarmCore
import Testing

/// skip / unskip and config reloads.
@Suite struct EngineCommandTests {
  let work = alarm("work", 6, 45)
  let day1 = LocalDate(year: 2026, month: 12, day: 3)

  @Test func skipMarksTheNextOccurrenceOnly() {
    var e = makeEngine([work])
    _ = e.advance(to: at(7, 0))
    var r = e.skip("work", now: at(7, 0))
    #expect(r.isOK && r.firing?.at == at(6, 45, day: 1) && r.actions.saves)
    #expect(e.state.marks.skipNext["work"] == day1)
    #expect(e.nextWake(now: at(7, 0)) == at(6, 45, day: 2))

    // Asking again is harmless and names the same occurrence.
    r = e.skip("work", now: at(8, 0))
    #expect(r.isOK && r.firing?.date == day1 && e.state.marks.skipNext["work"] == day1)

    #expect(e.advance(to: at(6, 45, day: 1)).sound.isEmpty)
    #expect(e.advance(to: at(6, 45, day: 2)).sound == ["start work 600s"])
    // Spent once a later occurrence came.
    #expect(e.state.marks.skipNext["work"] == nil)
  }

  @Test func unskipTakesItBack() {
    var e = makeEngine([work])
    _ = e.skip("work", now: at(7, 0))
    let r = e.unskip("work", now: at(7, 1))
    #expect(r.isOK && r.firing?.at == at(6, 45, day: 1))
    #expect(e.state.marks.skipNext.isEmpty)
    #expect(e.unskip("work", now: at(7, 2)).error?.code == .notSkipped)
    #expect(e.advance(to: at(6, 45, day: 1)).sound == ["start work 600s"])
  }

  @Test func skipRefusals() {
    var e = makeEngine([work, alarm("off", 8, 0, enabled: false), alarm("nap", 5, 0, days: .never)])
    _ = e.advance(to: at(6, 0))
    #expect(e.skip("off", now: at(6, 0)).error?.code == .nothingToSkip)
    #expect(e.skip("nap", now: at(6, 0)).isOK)  // armed at 06:00: tomorrow 05:00
    #expect(
      e.skip("zzz", now: at(6, 0)).error == ControlError(.unknownAlarm, "no alarm with id 'zzz'"))
    #expect(
      e.unskip("Work", now: at(6, 0)).error?.message
        == "no alarm with id 'Work' (did you mean 'work'?)")
  }

  @Test func reloadRemovingTheRingingAlarmStopsIt() {
    let gym = alarm("gym", 7, 0)
    var e = makeEngine([work, gym])
    _ = e.advance(to: at(6, 45))
    _ = e.skip("gym", now: at(6, 46))
    let a = e.reload(alarms: [work], source: UTCFirings(alarms: [work]), now: at(6, 47))
    #expect(a.sound.isEmpty)  // work still there: rings on
    #expect(e.state.marks.skipNext["gym"] == nil)  // marks of removed alarms pruned

    let b = e.reload(alarms: [gym], source: UTCFirings(alarms: [gym]), now: at(6, 48))
    #expect(b.sound == ["stop"] && b.hooks == ["stop work"] && b.saves)
    #expect(e.state.session == nil && e.state.history.last?.kind == .stopped)
    #expect(e.nextWake(now: at(6, 48)) == at(7, 0))
  }

  @Test func reloadDisablingTheSnoozedAlarmStopsIt() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 45))
    _ = e.snooze(now: at(6, 46))
    let off = alarm("work", 6, 45, enabled: false)
    let a = e.reload(alarms: [off], source: UTCFirings(alarms: [off]), now: at(6, 47))
    #expect(a.sound.isEmpty && a.hooks == ["stop work"] && e.state.session == nil)
  }

  @Test func reloadArmsNewOneOffsAndReArmsEditedOnes() {
    var e = makeEngine([work])
    _ = e.advance(to: at(12, 0))
    let nap = alarm("nap", 14, 30, days: .never)
    _ = e.reload(alarms: [work, nap], source: UTCFirings(alarms: [work, nap]), now: at(13, 0))
    #expect(e.state.marks.oneOffs["nap"] == OneOffMark(armedAt: at(13, 0), fingerprint: "14:30|-"))
    _ = e.advance(to: at(14, 30))
    _ = e.stop(now: at(14, 31))
    #expect(e.state.marks.oneOffs["nap"]?.doneAt == at(14, 30))

    // The same one-off again: still done. Edited: armed again.
    _ = e.reload(alarms: [work, nap], source: UTCFirings(alarms: [work, nap]), now: at(15, 0))
    #expect(e.state.marks.oneOffs["nap"]?.doneAt == at(14, 30))
    let later = alarm("nap", 16, 0, days: .never)
    _ = e.reload(alarms: [work, later], source: UTCFirings(alarms: [work, later]), now: at(15, 1))
    #expect(e.state.marks.oneOffs["nap"] == OneOffMark(armedAt: at(15, 1), fingerprint: "16:00|-"))
    #expect(e.nextWake(now: at(15, 1)) == at(16, 0))

    // Disabled: forgotten, so enabling it again re-arms it.
    let off = alarm("nap", 16, 0, days: .never, enabled: false)
    _ = e.reload(alarms: [work, off], source: UTCFirings(alarms: [work, off]), now: at(15, 2))
    #expect(e.state.marks.oneOffs["nap"] == nil)
    _ = e.reload(alarms: [work], source: UTCFirings(alarms: [work]), now: at(15, 3))
    #expect(e.state.marks.oneOffs.isEmpty)
  }

  @Test func unknownAlarmsInAStateFileArePruned() {
    var state = ServiceState(lastChecked: at(6, 0), highWater: at(6, 0))
    state.session = RingSession(
      alarmID: "gone", firing: at(5, 59), started: at(5, 59), periodStart: at(5, 59))
    state.marks.skipNext["gone"] = LocalDate(year: 2026, month: 12, day: 9)
    state.marks.oneOffs["gone"] = OneOffMark(armedAt: at(1, 0), fingerprint: "05:59|-")
    var e = makeEngine([work], state: state)
    let a = e.advance(to: at(6, 1))
    #expect(a.sound.isEmpty && a.hooks == ["stop gone"])
    #expect(e.state.session == nil && e.state.marks == ScheduleMarks())
  }

  @Test func upcomingListsSimultaneousFirings() {
    let e = makeEngine([work, alarm("also", 6, 45), alarm("gym", 7, 0)])
    let next = e.upcoming(after: at(6, 0), count: 4).map { "\($0.alarmID) \($0.at == at(6, 45))" }
    #expect(next == ["also true", "work true", "gym false", "also false"])
  }
}
