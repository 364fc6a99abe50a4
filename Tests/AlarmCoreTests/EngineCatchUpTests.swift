import AlarmCore
import Testing

/// Restarts, power loss and clock jumps: what rings at once, what is
/// recorded as missed, and what never rings twice.
@Suite struct EngineCatchUpTests {
  let work = alarm("work", 6, 45)

  /// The engine's state after it ran until `until` (as written to disk),
  /// round-tripped through the state codec like a real restart.
  func saved(_ e: AlarmEngine) throws -> ServiceState {
    try StateCodec.decode(StateCodec.encode(e.state))
  }

  @Test func restartMidRingResumesForWhatIsLeft() throws {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(6, 45))
    var e2 = makeEngine([work], state: try saved(e))  // kill -9 at 06:47
    let a = e2.advance(to: at(6, 48))
    #expect(a.sound == ["start work 420s resumed"])
    #expect(a.hooks.isEmpty)
    #expect(e2.state.kinds == ["rung work"])
    #expect(e2.nextWake(now: at(6, 48)) == at(6, 55))
    #expect(e2.advance(to: at(6, 55)).sound == ["stop"])
  }

  @Test func restartMidSnoozeRingsAtTheOriginalDeadline() throws {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 45))
    _ = e.snooze(now: at(6, 46))  // until 06:55
    let state = try saved(e)

    var early = makeEngine([work], state: state)
    #expect(early.advance(to: at(6, 50)).sound.isEmpty)
    #expect(early.nextWake(now: at(6, 50)) == at(6, 55))
    #expect(early.advance(to: at(6, 55)).sound == ["start work 600s"])

    // The deadline passed while down, but the ring after it still covers now.
    var late = makeEngine([work], state: state)
    let a = late.advance(to: at(7, 0))
    #expect(a.sound == ["start work 300s"] && a.hooks == ["ring work"])
    #expect(late.state.session?.periodStart == at(6, 55))

    // The ring after the snooze is over too: missed, never rung stale.
    var gone = makeEngine([work], state: state)
    let b = gone.advance(to: at(7, 10))
    #expect(b.sound.isEmpty && b.hooks == ["missed work"])
    #expect(gone.state.session == nil && gone.state.history.last?.kind == .missed)
  }

  @Test func restartAfterTheWindowRecordsMissed() throws {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    let state = try saved(e)

    var within = makeEngine([work], state: state)
    #expect(within.advance(to: at(6, 50)).sound == ["start work 300s"])

    var after = makeEngine([work], state: state)
    let a = after.advance(to: at(7, 0))
    #expect(a.sound.isEmpty && a.hooks == ["missed work"])
    #expect(after.state.kinds == ["missed work"])
    #expect(after.recentHistory(now: at(7, 0)).first?.firing == at(6, 45))
    // Once recorded, a missed occurrence is not recorded again.
    var again = makeEngine([work], state: try saved(after))
    _ = again.advance(to: at(7, 1))
    #expect(again.state.kinds == ["missed work"])
    #expect(again.advance(to: at(6, 45, day: 1)).sound == ["start work 600s"])
  }

  @Test func clockJumpForward() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    #expect(e.advance(to: at(6, 50)).sound == ["start work 300s"])

    var f = makeEngine([work])
    _ = f.advance(to: at(6, 0))
    #expect(f.advance(to: at(7, 0)).hooks == ["missed work"])
    #expect(f.state.session == nil)

    // Two windows cover now: the most recent rings, the other is missed.
    var g = makeEngine([work, alarm("gym", 6, 48)])
    _ = g.advance(to: at(6, 0))
    #expect(g.advance(to: at(6, 50)).sound == ["start gym 480s"])
    #expect(g.state.kinds == ["missed work", "rung gym"])
  }

  @Test func clockJumpBackwardNeverRingsAnOccurrenceTwice() {
    let gym = alarm("gym", 6, 40, ringFor: .seconds(300))
    var e = makeEngine([work, gym])
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(6, 50))  // work rings; gym (06:40-06:45) missed
    #expect(e.state.kinds == ["missed gym", "rung work"])
    _ = e.stop(now: at(6, 51))

    let back = e.advance(to: at(6, 30))
    #expect(back.contains { if case .log(.warning, _) = $0 { true } else { false } })
    #expect(e.state.lastChecked == at(6, 30) && e.state.highWater == at(6, 51))
    // gym never rang: when its time comes again, it rings (as a phone would).
    #expect(e.advance(to: at(6, 40)).sound == ["start gym 300s"])
    _ = e.stop(now: at(6, 41))
    // work rang already: no duplicate.
    #expect(e.advance(to: at(6, 45)).sound.isEmpty)
    #expect(e.advance(to: at(7, 0)).sound.isEmpty)
    #expect(e.state.kinds.filter { $0 == "rung work" }.count == 1)
    #expect(e.advance(to: at(6, 45, day: 1)).sound == ["start work 600s"])
  }

  /// Found by the simulated year: a clock that ran more than 12 h ahead
  /// pruned the `rung` entry, and when NTP set it back the alarm rang twice.
  @Test func clockAheadByMoreThanTheHistoryWindowThenBackNeverRingsTwice() throws {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    #expect(e.advance(to: at(6, 45)).sound == ["start work 600s"])
    _ = e.stop(now: at(6, 50))
    _ = e.advance(to: at(1, 0, day: 1))  // 18 h ahead: before work's next occurrence
    #expect(e.state.kinds.contains("rung work"))
    var restarted = makeEngine([work], state: try saved(e))
    _ = restarted.advance(to: at(6, 40))  // NTP sets it back
    #expect(restarted.advance(to: at(6, 45)).sound.isEmpty)
    #expect(restarted.advance(to: at(6, 45, day: 1)).sound == ["start work 600s"])
  }

  @Test func clockGoingBackDuringASnoozeKeepsItShort() {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 45))
    _ = e.snooze(now: at(6, 46))
    _ = e.advance(to: at(5, 0))
    #expect(e.state.session?.snoozeUntil == at(5, 9))
    #expect(e.advance(to: at(5, 9)).sound == ["start work 600s"])
  }

  /// A Pi without RTC: it ran until day 0 22:00, boots weeks later with its
  /// clock at 1970, then NTP sets the true time.
  @Test func piBootsIn1970ThenTheClockJumpsWeeksAhead() throws {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(6, 45))
    _ = e.stop(now: at(6, 46))
    _ = e.advance(to: at(22, 0))
    let state = try saved(e)

    var boot = makeEngine([work], state: state)
    let a = boot.advance(to: Instant(seconds: 30))
    #expect(a.sound.isEmpty && a.hooks.isEmpty)
    #expect(boot.state.lastChecked == Instant(seconds: 30))

    var ringing = boot
    let b = ringing.advance(to: at(6, 50, day: 21))
    #expect(b.sound == ["start work 300s"])
    // Days 1 to 20 were missed: three entries, the oldest standing for 17 more.
    let missed = ringing.state.history.filter { $0.kind == .missed }
    #expect(missed.map(\.firing) == [18, 19, 20].map { at(6, 45, day: $0) })
    #expect(missed.map(\.more) == [17, 0, 0])
    #expect(b.hooks == ["missed work", "missed work", "missed work", "ring work"])

    var late = boot
    let c = late.advance(to: at(7, 30, day: 21))
    #expect(c.sound.isEmpty)
    #expect(late.state.history.filter { $0.kind == .missed }.map(\.more) == [18, 0, 0])
  }

  @Test func aFreshStateAfterAHugeJumpStaysBounded() {
    var e = makeEngine([work, alarm("gym", 7, 0)])
    _ = e.advance(to: Instant(seconds: 30))
    let a = e.advance(to: at(6, 50))
    #expect(a.sound == ["start work 300s"])
    #expect(
      a.contains { if case .log(_, let m) = $0 { m.contains("only the last") } else { false } })
    let missed = e.state.history.filter { $0.kind == .missed }
    #expect(missed.count == 6)  // 3 per alarm
    let total = missed.map(\.more).reduce(0, +)
    #expect(total == 2 * 62 - 1 - 6)
  }

  @Test func aFreshStartRingsAWindowThatCoversNowButRecordsNothingOlder() {
    var e = makeEngine([work, alarm("early", 5, 0)])
    let a = e.advance(to: at(6, 50))
    #expect(a.sound == ["start work 300s"])
    #expect(e.state.kinds == ["rung work"])
  }

  /// Found by the boot tier: a one-off added while the clock was weeks behind, whose
  /// true time lies before the newest instant an earlier boot saw, was neither rung
  /// nor recorded when the clock was set.
  @Test func aOneOffAddedWhileTheClockWasBehindIsMissedNotForgotten() throws {
    var e = makeEngine([work])
    _ = e.advance(to: at(6, 0))
    _ = e.advance(to: at(22, 0))  // the earlier boot ran until 22:00
    let dentist = alarm(
      "dentist", 21, 40, days: .never, date: LocalDate(year: 2026, month: 12, day: 2))
    var boot = makeEngine([work], state: try saved(e))
    _ = boot.advance(to: Instant(seconds: 30))  // no RTC: 1970
    _ = boot.reload(
      alarms: [work, dentist], source: UTCFirings(alarms: [work, dentist]),
      now: Instant(seconds: 40))
    let a = boot.advance(to: at(22, 5))  // the clock is set
    #expect(a.sound.isEmpty)
    #expect(a.hooks == ["missed dentist"])
    #expect(boot.state.kinds.filter { $0 == "missed dentist" }.count == 1)
    #expect(boot.upcoming(after: at(22, 5), count: 1).map(\.at) == [at(6, 45, day: 1)])
    // Recorded once: a later catch-up does not report it again.
    #expect(boot.advance(to: at(23, 0)).hooks.isEmpty)
  }

  /// Found by the boot tier: a test ring of a disabled alarm ended when the service
  /// restarted ("was disabled: its ring session stops") although nothing changed.
  @Test func aTestRingOfADisabledAlarmResumesAfterARestart() throws {
    let off = alarm("off", 9, 0, enabled: false)
    var e = makeEngine([work, off])
    _ = e.advance(to: at(8, 0))
    #expect(e.ring("off", now: at(8, 1)).error == nil)
    #expect(e.state.session?.isTest == true)
    var restarted = makeEngine([work, off], state: try saved(e))  // watchdog restart
    let a = restarted.advance(to: at(8, 2))
    #expect(a.sound == ["start off 540s resumed"])
    #expect(restarted.state.session?.alarmID == "off")
    // A scheduled ring of an alarm disabled while the service was down still stops.
    var f = makeEngine([work])
    _ = f.advance(to: at(6, 0))
    _ = f.advance(to: at(6, 45))
    var disabled = work
    disabled.enabled = false
    var g = makeEngine([disabled], state: try saved(f))
    _ = g.advance(to: at(6, 46))
    #expect(g.state.session == nil)
  }
}
