import AlarmCore
import Testing

@Suite struct PressOutcomeTests {
  @Test func defaultsSnoozeOnShortAndStopOnLong() {
    let a = PressActions()
    #expect(a.outcome(of: .short, during: .ringing) == .snooze)
    #expect(a.outcome(of: .long, during: .ringing) == .stop)
  }

  @Test func stopOnlyButton() {
    let a = PressActions(shortPress: .stop, longPress: .stop)
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
    let hook = PressActions(idlePress: .hook)
    #expect(hook.outcome(of: .long, during: .idle) == .idleHook(.long))
    #expect(hook.outcome(of: .short, during: .ringing) == .snooze)
    let speak = PressActions(idlePress: .sayTime)
    #expect(speak.outcome(of: .short, during: .idle) == .sayTime)
    #expect(speak.outcome(of: .long, during: .idle) == .sayTime)
    #expect(speak.outcome(of: .short, during: .ringing) == .snooze)
    #expect(speak.outcome(of: .short, during: .snoozed) == .ignore)
  }

  @Test func noneBindsNothing() {
    let a = PressActions(shortPress: .none, longPress: .stop)
    #expect(a.outcome(of: .short, during: .ringing) == .ignore)
  }
}

@Suite struct StopOnlyActionsTests {
  @Test func stopKeysStopOnAnyPress() {
    #expect(PressActions.stopOnly.outcome(of: .short, during: .ringing) == .stop)
    #expect(PressActions.stopOnly.outcome(of: .long, during: .snoozed) == .stop)
    #expect(PressActions.stopOnly.outcome(of: .short, during: .idle) == .ignore)
  }
}
