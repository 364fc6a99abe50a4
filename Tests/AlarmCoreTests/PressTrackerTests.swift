import AlarmCore
import Testing

private let ms: UInt64 = 1_000_000

@Suite struct PressTrackerTests {
  private let stopOnly = PressActions.stopOnly

  @Test func eachBindingHasItsOwnDetectorAndActions() {
    var t = PressTracker(bindings: [
      KeyBinding(code: 57),  // KEY_SPACE: snooze / stop
      KeyBinding(code: 128, longPress: .seconds(3), actions: stopOnly),  // KEY_STOP
    ])
    #expect(t.codes == [57, 128])
    #expect(t.edge(.down, code: 57, at: 0) == nil)
    #expect(t.edge(.down, code: 128, at: 100 * ms) == nil)
    #expect(t.edge(.down, code: 30, at: 100 * ms) == nil)  // unbound: ignored
    #expect(t.deadline == 1500 * ms)
    #expect(
      t.threshold(now: 1500 * ms) == [
        InputPress(code: 57, kind: .long, actions: PressActions(), timestampNanoseconds: 1500 * ms)
      ])
    #expect(t.deadline == 3100 * ms)
    #expect(
      t.edge(.up, code: 128, at: 400 * ms)
        == InputPress(code: 128, kind: .short, actions: stopOnly, timestampNanoseconds: 400 * ms))
    #expect(t.deadline == nil)
  }

  @Test func lostEventsResetEveryKey() {
    var t = PressTracker(bindings: [KeyBinding(code: 1), KeyBinding(code: 2)])
    _ = t.edge(.down, code: 1, at: 0)
    _ = t.edge(.down, code: 2, at: 0)
    t.eventsLost()
    #expect(t.deadline == nil)
    #expect(t.threshold(now: 10_000 * ms).isEmpty)
  }
}
