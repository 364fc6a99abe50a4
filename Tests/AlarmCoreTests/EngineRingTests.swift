import AlarmCore
import Testing

/// The ring state machine, step by step with an injected clock.
@Suite struct EngineRingTests {
  let work = alarm("work", 6, 45)

  @Test func ringSnoozeRingStop() {
    var e = makeEngine([work])
    var a = e.advance(to: at(6, 0))
    #expect(a.sound.isEmpty && a.saves)
    #expect(e.nextWake(now: at(6, 0)) == at(6, 45))

    a = e.advance(to: at(6, 45))
    #expect(a.sound == ["start work 600s"])
    #expect(a.hooks == ["ring work"])
    #expect(e.state.session?.alarmID == "work" && e.state.session?.periodStart == at(6, 45))
    #expect(e.nextWake(now: at(6, 45)) == at(6, 55))

    var r = e.snooze(now: at(6, 47))
    #expect(r.isOK && r.until == at(6, 56))
    #expect(r.actions.sound == ["stop"] && r.actions.hooks == ["snooze work"] && r.actions.saves)
    #expect(e.state.session?.snoozeCount == 1)
    #expect(e.nextWake(now: at(6, 47)) == at(6, 56))
    #expect(e.advance(to: at(6, 50)).sound.isEmpty)

    a = e.advance(to: at(6, 56))
    #expect(a.sound == ["start work 600s"] && a.hooks == ["ring work"])
    #expect(e.state.session?.periodStart == at(6, 56))
    #expect(e.nextWake(now: at(6, 56)) == at(7, 6))

    r = e.stop(now: at(6, 58))
    #expect(r.isOK && r.actions.sound == ["stop"] && r.actions.hooks == ["stop work"])
    #expect(e.state.session == nil)
    #expect(e.state.kinds == ["rung work", "snoozed work", "stopped work"])
    #expect(e.nextWake(now: at(6, 58)) == at(6, 45, day: 1))
  }

  @Test func autoSilenceEndsEachRingPeriod() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(6, 45))
    var a = e.advance(to: at(6, 55))
    #expect(a.sound == ["stop"] && a.hooks == ["stop work"])
    #expect(e.state.session == nil && e.state.kinds == ["rung work", "silenced work"])
    #expect(e.state.history.last?.at == at(6, 55))

    // After a snooze the new period lasts ringFor again; a late timer
    // rings only for what is left of it.
    _ = e.advance(to: at(6, 45, day: 1))
    _ = e.snooze(now: at(6, 50, day: 1))  // until 06:59
    a = e.advance(to: at(6, 59, 30, day: 1))
    #expect(a.sound == ["start work 570s"])
    a = e.advance(to: at(7, 9, day: 1))
    #expect(a.sound == ["stop"] && e.state.history.last?.kind == .silenced)
  }

  @Test func snoozeOffIsRefusedAndTheRingGoesOn() {
    var e = makeEngine([alarm("work", 6, 45, snooze: nil)])
    _ = e.advance(to: at(6, 45))
    let r = e.snooze(now: at(6, 46))
    #expect(r.error == ControlError(.snoozeOff, "snooze is off for this alarm"))
    #expect(r.actions.sound.isEmpty)
    #expect(
      r.actions.contains {
        if case .log(_, let m) = $0 { m.contains("snooze refused") } else { false }
      })
    #expect(e.soundPlaying && e.state.session?.isSnoozed == false)
    #expect(e.stop(now: at(6, 47)).isOK)
  }

  @Test func snoozeAndStopWhenNothingRings() {
    var e = makeEngine([work])
    #expect(e.snooze(now: at(6, 0)).error?.code == .notRinging)
    #expect(e.stop(now: at(6, 0)).error?.code == .notRinging)
    _ = e.advance(to: at(6, 45))
    #expect(e.snooze(now: at(6, 46)).isOK)
    #expect(e.snooze(now: at(6, 47)).error?.code == .notRinging)  // already snoozed
    let r = e.stop(now: at(6, 48))  // stopping a snoozed session is fine
    #expect(r.isOK && r.actions.sound.isEmpty && r.actions.hooks == ["stop work"])
  }

  @Test func anAlarmFiringDuringASessionTakesItOver() {
    let gym = alarm("gym", 6, 50)
    var e = makeEngine([work, gym])
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(6, 45))
    let a = e.advance(to: at(6, 50))
    #expect(a.sound == ["stop", "start gym 600s"])
    #expect(a.hooks == ["ring gym"])  // no stop hook: the session goes on
    #expect(e.state.kinds == ["rung work", "replaced work", "rung gym"])
    #expect(e.state.session?.alarmID == "gym")

    // During a snooze too.
    _ = e.stop(now: at(6, 51))
    _ = e.advance(to: at(6, 45, day: 1))
    _ = e.snooze(now: at(6, 46, day: 1))
    let b = e.advance(to: at(6, 50, day: 1))
    #expect(b.sound == ["start gym 600s"])
    #expect(e.state.history.suffix(2).map(\.kind) == [.replaced, .rung])
  }

  @Test func simultaneousFiringsRingTheLastAndRecordTheOthersMissed() {
    var e = makeEngine([alarm("a", 6, 45), alarm("b", 6, 45)])
    _ = e.advance(to: at(6, 0))
    let a = e.advance(to: at(6, 45))
    #expect(a.sound == ["start b 600s"])
    #expect(e.state.kinds == ["missed a", "rung b"])
  }

  @Test func aOneOffIsDoneWhenItStartsRinging() {
    var e = makeEngine([alarm("nap", 14, 30, days: .never)])
    let a = e.advance(to: at(12, 0))
    #expect(e.state.marks.oneOffs["nap"]?.armedAt == at(12, 0))
    #expect(a.saves)
    #expect(e.nextWake(now: at(12, 0)) == at(14, 30))
    #expect(e.advance(to: at(14, 30)).sound == ["start nap 600s"])
    #expect(e.state.marks.oneOffs["nap"]?.doneAt == at(14, 30))
    _ = e.stop(now: at(14, 31))
    #expect(e.nextWake(now: at(14, 31)) == nil)
    #expect(e.advance(to: at(14, 30, day: 1)).sound.isEmpty)
  }

  @Test func testRingIsANormalSessionThatKeepsOneOffs() {
    var e = makeEngine([work, alarm("nap", 14, 30, days: .never)])
    _ = e.advance(to: at(12, 0))
    var r = e.ring("nap", now: at(12, 0))
    #expect(r.isOK && r.actions.sound == ["start nap 600s"])
    #expect(e.state.marks.oneOffs["nap"]?.doneAt == nil)
    r = e.ring("work", now: at(12, 1))
    #expect(r.actions.sound == ["stop", "start work 600s"])
    #expect(e.snooze(now: at(12, 2)).until == at(12, 11))
    r = e.ring("wrok", now: at(12, 3))
    #expect(
      r.error == ControlError(.unknownAlarm, "no alarm with id 'wrok' (did you mean 'work'?)"))
  }

  @Test func preRingHookRunsOnceAtTheLeadTime() {
    var e = makeEngine([work], options: EngineOptions(preRingLead: .seconds(20 * 60)))
    #expect(e.advance(to: at(6, 0)).hooks.isEmpty)
    #expect(e.nextWake(now: at(6, 0)) == at(6, 25))
    #expect(e.advance(to: at(6, 25)).hooks == ["pre_ring work"])
    #expect(e.advance(to: at(6, 30)).hooks.isEmpty)
    #expect(e.nextWake(now: at(6, 30)) == at(6, 45))
    #expect(e.advance(to: at(6, 45)).hooks == ["ring work"])

    // A jump landing inside the lead window runs it late.
    var f = makeEngine([work], options: EngineOptions(preRingLead: .seconds(20 * 60)))
    _ = f.advance(to: at(5, 0))
    #expect(f.advance(to: at(6, 40)).hooks == ["pre_ring work"])
  }

  @Test func historyIsPrunedToTwelveHoursRungEntriesToEightDays() {
    var e = makeEngine([work], options: EngineOptions(maxScan: .seconds(60)))
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(6, 45))
    _ = e.stop(now: at(6, 46))
    _ = e.advance(to: at(18, 45, 30))
    #expect(e.state.kinds == ["rung work", "stopped work"])
    #expect(e.recentHistory(now: at(18, 45, 30)).isEmpty)  // stopped is not shown
    let a = e.advance(to: at(18, 46, 1))
    #expect(e.state.kinds == ["rung work"] && a.saves)
    #expect(e.recentHistory(now: at(18, 46, 1)).isEmpty)  // status shows 12 hours
    // The rung entry outlives a clock run ahead by days (it stops a second
    // ring when the clock is set back), not a week and a day.
    let work2 = e.state
    var later = makeEngine([], state: work2)
    _ = later.advance(to: at(6, 44, day: 8))
    #expect(later.state.kinds == ["rung work"])
    _ = later.advance(to: at(6, 46, day: 8))
    #expect(later.state.history.isEmpty)
  }
}
