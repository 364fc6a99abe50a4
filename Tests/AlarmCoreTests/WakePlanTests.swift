import AlarmCore
import Testing

/// The service's timer plan: engine wake-ups, prepare points and the idle horizon.
@Suite struct WakePlanTests {
  let work = alarm("work", 6, 45)

  @Test func armsAtThePreparePointBeforeAFiring() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    let plan = e.wakePlan(now: at(6, 0), prepared: nil)
    #expect(plan.deadline == at(6, 44, 58))
    #expect(plan.isPreparePoint && plan.prepare?.at == at(6, 45))
    #expect(plan.prepareNow == nil)
    #expect(e.firingToPrepare(now: at(6, 0)) == nil)
    #expect(e.firingToPrepare(now: at(6, 44, 58))?.alarmID == "work")
  }

  @Test func aPreparedFiringGetsTheEngineWakeUp() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    let f = e.upcoming(after: at(6, 0), count: 1).first
    let plan = e.wakePlan(now: at(6, 44, 58), prepared: f)
    #expect(plan.deadline == at(6, 45) && !plan.isPreparePoint && plan.prepareNow == nil)
  }

  @Test func insideTheLeadThePreparationIsAtOnce() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 44, 59))
    let plan = e.wakePlan(now: at(6, 44, 59), prepared: nil)
    #expect(plan.deadline == at(6, 45) && !plan.isPreparePoint)
    #expect(plan.prepareNow?.alarmID == "work")
  }

  @Test func whileRingingTheSessionDeadlineAndNoPreparation() {
    var e = makeEngine([work, alarm("late", 6, 50)])
    _ = e.advance(to: at(6, 45))
    #expect(e.soundPlaying)
    let plan = e.wakePlan(now: at(6, 46), prepared: nil)
    #expect(plan.deadline == at(6, 50) && !plan.isPreparePoint && plan.prepareNow == nil)
  }

  @Test func nothingScheduledArmsTheIdleHorizon() {
    var e = makeEngine([alarm("off", 6, 45, enabled: false)])
    _ = e.advance(to: at(6, 0))
    let plan = e.wakePlan(now: at(6, 0), prepared: nil)
    #expect(plan.deadline == at(6, 0) + WakePlan.idleHorizon && !plan.isPreparePoint)
  }
}
