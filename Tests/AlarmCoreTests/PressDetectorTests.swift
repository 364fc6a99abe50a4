import AlarmCore
import Testing

private let ms: UInt64 = 1_000_000
private let t0: UInt64 = 5_000 * ms  // an arbitrary monotonic boot time

@Suite struct PressDetectorTests {
  @Test func shortPressIsReportedOnRelease() {
    var d = PressDetector(longPress: .milliseconds(1500))
    #expect(d.edge(.down, at: t0) == nil)
    #expect(d.deadline == t0 + 1500 * ms)
    #expect(d.edge(.up, at: t0 + 200 * ms) == .short)
    #expect(d.deadline == nil)
    #expect(!d.isPressed)
  }

  @Test func longPressIsReportedAtTheThresholdWithoutRelease() {
    var d = PressDetector(longPress: .milliseconds(1500))
    _ = d.edge(.down, at: t0)
    #expect(d.threshold(now: t0 + 1499 * ms) == nil)  // early timer: nothing yet
    #expect(d.threshold(now: t0 + 1500 * ms) == .long)
    #expect(d.deadline == nil)
    #expect(d.isPressed)
    #expect(d.threshold(now: t0 + 3000 * ms) == nil)  // reported once
    #expect(d.edge(.up, at: t0 + 4000 * ms) == nil)  // release after long: nothing more
  }

  @Test func shortPressReadLateIsStillShort() {
    // The loop was busy for 3 s; the release's timestamp is before the
    // threshold, so it is short, and the late timer then finds nothing held.
    var d = PressDetector(longPress: .milliseconds(1500))
    _ = d.edge(.down, at: t0)
    #expect(d.edge(.up, at: t0 + 300 * ms) == .short)
    #expect(d.threshold(now: t0 + 3000 * ms) == nil)
  }

  @Test func holdReadLateAfterTheThresholdIsLong() {
    // The timer was not serviced, but the events show a 2 s hold.
    var d = PressDetector(longPress: .milliseconds(1500))
    _ = d.edge(.down, at: t0)
    #expect(d.edge(.up, at: t0 + 2000 * ms) == .long)
  }

  @Test func bounceShorterThanMinimumPressIsIgnored() {
    var d = PressDetector(longPress: .milliseconds(1500), minimumPress: .milliseconds(20))
    // A bounce on contact: 2 ms blips, then the real press.
    _ = d.edge(.down, at: t0)
    #expect(d.edge(.up, at: t0 + 2 * ms) == nil)
    _ = d.edge(.down, at: t0 + 4 * ms)
    #expect(d.edge(.up, at: t0 + 250 * ms) == .short)
    // A bounce on release.
    _ = d.edge(.down, at: t0 + 252 * ms)
    #expect(d.edge(.up, at: t0 + 253 * ms) == nil)
  }

  @Test func autorepeatIsIgnored() {
    var d = PressDetector(longPress: .milliseconds(1500))
    #expect(d.keyValue(1, at: t0) == nil)
    for i in 1...20 {  // a keyboard repeats every 33 ms after 250 ms
      #expect(d.keyValue(2, at: t0 + 250 * ms + UInt64(i) * 33 * ms) == nil)
    }
    #expect(d.deadline == t0 + 1500 * ms)
    #expect(d.threshold(now: t0 + 1500 * ms) == .long)
    #expect(d.keyValue(0, at: t0 + 2000 * ms) == nil)
  }

  @Test func keyPressAndReleaseValues() {
    var d = PressDetector()
    #expect(d.keyValue(1, at: t0) == nil)
    #expect(d.keyValue(0, at: t0 + 100 * ms) == .short)
    #expect(d.keyValue(7, at: t0 + 200 * ms) == nil)  // unknown values ignored
  }

  @Test func lostReleaseBetweenTwoQuickPressesCountsTheFirstAsShort() {
    var d = PressDetector(longPress: .milliseconds(1500))
    _ = d.edge(.down, at: t0)
    #expect(d.edge(.down, at: t0 + 400 * ms) == .short)
    #expect(d.deadline == t0 + 1900 * ms)
    #expect(d.edge(.up, at: t0 + 600 * ms) == .short)
  }

  @Test func lostReleaseAfterAnOldPressIsNotGuessed() {
    var d = PressDetector(longPress: .milliseconds(1500))
    _ = d.edge(.down, at: t0)
    #expect(d.edge(.down, at: t0 + 5000 * ms) == nil)
    #expect(d.edge(.up, at: t0 + 5100 * ms) == .short)
  }

  @Test func releaseWithoutPressIsIgnored() {
    var d = PressDetector()
    #expect(d.edge(.up, at: t0) == nil)
    #expect(d.deadline == nil)
  }

  @Test func lostEventsForgetThePressInProgress() {
    var d = PressDetector(longPress: .milliseconds(1500))
    _ = d.edge(.down, at: t0)
    d.eventsLost()
    #expect(d.deadline == nil)
    #expect(d.threshold(now: t0 + 2000 * ms) == nil)
    #expect(d.edge(.up, at: t0 + 2100 * ms) == nil)
    _ = d.edge(.down, at: t0 + 3000 * ms)
    #expect(d.edge(.up, at: t0 + 3100 * ms) == .short)
  }

  @Test func hugeDurationsSaturateInsteadOfTrapping() {
    var d = PressDetector(longPress: .seconds(Int64.max / 2))
    _ = d.edge(.down, at: UInt64.max - 5)
    #expect(d.deadline == UInt64.max)
    #expect(d.edge(.up, at: 3) == .short)  // a timestamp going backwards: held 0
  }
}
