import AlarmCore
import Testing

@Suite struct PressActionsTests {
  @Test func defaultsSnoozeOnShortAndStopOnLong() {
    let a = PressActions()
    #expect(a.outcome(of: .short, during: .ringing) == .snooze)
    #expect(a.outcome(of: .long, during: .ringing) == .stop)
  }

  @Test func stopOnlyButton() {
    let a = PressActions(short: .stop, long: .stop)
    #expect(a.outcome(of: .short, during: .ringing) == .stop)
    #expect(a.outcome(of: .short, during: .snoozed) == .stop)
  }

  @Test func whileSnoozedOnlyStopApplies() {
    let a = PressActions()
    #expect(a.outcome(of: .short, during: .snoozed) == .ignore)
    #expect(a.outcome(of: .long, during: .snoozed) == .stop)
  }

  @Test func idleBehaviour() {
    #expect(PressActions().outcome(of: .short, during: .idle) == .ignore)
    let hook = PressActions(whenIdle: .hook)
    #expect(hook.outcome(of: .long, during: .idle) == .idleHook(.long))
    #expect(hook.outcome(of: .short, during: .ringing) == .snooze)
  }

  @Test func noneBindsNothing() {
    let a = PressActions(short: .none, long: .stop)
    #expect(a.outcome(of: .short, during: .ringing) == .ignore)
  }
}
