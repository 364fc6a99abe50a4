import AlarmCore
import Testing

/// Snoozes to the millisecond and the snooze limit (`max_snoozes`).
@Suite struct EngineSnoozeTests {
  func limited(_ n: Int?, snooze: Duration = .seconds(3)) -> Alarm {
    var a = alarm("work", 6, 45, snooze: snooze)
    a.maxSnoozes = n
    return a
  }

  @Test func aSnoozeEndsAtThePressPlusItsLengthToTheMillisecond() {
    var e = makeEngine([limited(nil)])
    _ = e.advance(to: at(6, 45))
    let press = at(6, 45, 1) + .milliseconds(500)
    let r = e.snooze(now: press)
    #expect(r.until == at(6, 45, 4) + .milliseconds(500))
    #expect(e.nextWake(now: press) == at(6, 45, 4) + .milliseconds(500))
    // Not a millisecond early.
    #expect(e.advance(to: at(6, 45, 4) + .milliseconds(499)).sound.isEmpty)
    #expect(e.advance(to: at(6, 45, 4) + .milliseconds(500)).sound == ["start work 600s"])
    // The new period's end keeps the milliseconds too.
    #expect(e.sessionDeadline == at(6, 55, 4) + .milliseconds(500))
  }

  @Test func theSnoozeLimitKeepsItRingingUntilStopped() {
    var e = makeEngine([limited(2)])
    _ = e.advance(to: at(6, 45))
    var t = at(6, 45)
    for n in 1...2 {
      #expect(e.snooze(now: t).isOK)
      t = t + .seconds(3)
      #expect(e.advance(to: t).sound == ["start work 600s"])
      #expect(e.state.session?.snoozeCount == n)
    }
    let r = e.snooze(now: t)
    #expect(r.error?.code == .snoozeLimit)
    #expect(r.error?.message == "'work' was snoozed 2 times (max_snoozes = 2); only stop ends it")
    #expect(r.actions.sound.isEmpty && e.soundPlaying && e.state.session?.isSnoozed == false)
    #expect(
      r.actions.contains {
        if case .log(.notice, let m) = $0 { m.contains("snooze refused") } else { false }
      })
    let status = e.statusParts(now: t, format: { $0.description }).session
    #expect(status?.snoozes == 2 && status?.maxSnoozes == 2 && status?.snoozeLimitReached == true)
    #expect(e.stop(now: t + .seconds(1)).isOK && e.state.session == nil)
  }

  @Test func zeroSnoozesRefusesEverySnoozeAndSaysWhy() {
    var e = makeEngine([limited(0)])
    _ = e.advance(to: at(6, 45))
    let r = e.snooze(now: at(6, 46))
    #expect(r.error?.code == .snoozeLimit)
    #expect(
      r.error?.message == "snooze is not allowed for 'work' (max_snoozes = 0); only stop ends it")
  }

  @Test func theCountSurvivesARestart() throws {
    var e = makeEngine([limited(1)])
    _ = e.advance(to: at(6, 45))
    _ = e.snooze(now: at(6, 45) + .milliseconds(250))
    let saved = try StateCodec.decode(StateCodec.encode(e.state))
    #expect(saved == e.state)
    var again = makeEngine([limited(1)], state: saved)
    #expect(again.nextWake(now: at(6, 45, 1)) == at(6, 45, 3) + .milliseconds(250))
    #expect(again.advance(to: at(6, 45, 3) + .milliseconds(249)).sound.isEmpty)
    #expect(again.advance(to: at(6, 45, 3) + .milliseconds(250)).sound == ["start work 600s"])
    #expect(again.snooze(now: at(6, 45, 5)).error?.code == .snoozeLimit)
  }
}

@Suite struct StateCodecMillisecondTests {
  @Test func instantsWithMillisecondsRoundTrip() throws {
    let press = Instant(seconds: 1_764_655_201, milliseconds: 500)
    var state = ServiceState(lastChecked: press, highWater: press)
    state.session = RingSession(
      alarmID: "work", firing: Instant(seconds: 1_764_655_200), started: press,
      periodStart: press, snoozeUntil: press + .seconds(3), snoozeCount: 1)
    let text = String(decoding: StateCodec.encode(state), as: UTF8.self)
    #expect(text.contains("\"snooze_until\": 1764655204.5"))
    // Whole seconds stay integers, as older builds wrote and read them.
    #expect(text.contains("\"firing\": 1764655200,"))
    #expect(try StateCodec.decode(StateCodec.encode(state)) == state)
    let odd = Instant(seconds: 1_764_655_201, milliseconds: 7)
    state.lastChecked = odd
    #expect(try StateCodec.decode(StateCodec.encode(state)).lastChecked == odd)
  }

  @Test func oldWholeSecondFilesStillLoad() throws {
    let old = """
      {"version": 1, "last_checked": 1764655200, "high_water": 1764655200,
       "session": {"alarm": "work", "firing": 1764655200, "period_start": 1764655200,
                   "snooze_count": 2, "snooze_until": 1764655740, "started": 1764655200},
       "skip_next": {}, "one_offs": {}, "history": []}
      """
    let s = try StateCodec.decode(Array(old.utf8))
    #expect(s.session?.snoozeUntil == Instant(seconds: 1_764_655_740))
    #expect(s.session?.snoozeCount == 2)
  }

  @Test func aBadFractionIsRejectedWithItsField() {
    let bad = """
      {"version": 1, "last_checked": -0.5, "skip_next": {}, "one_offs": {}, "history": []}
      """
    #expect(throws: StateDecodeError.self) { try StateCodec.decode(Array(bad.utf8)) }
    do {
      _ = try StateCodec.decode(Array(bad.utf8))
    } catch {
      #expect(error.message.hasPrefix("last_checked: must be a number of seconds"))
    }
  }
}

@Suite struct StatusTextSnoozeLimitTests {
  @Test func theLimitAndTheClockAreShown() {
    var report = StatusReport(
      version: "0.1.0", config: ConfigStatus(path: "/a.toml", ok: true, errors: []),
      clockSynchronized: true,
      session: SessionStatus(
        id: "work", label: nil, state: .ringing, until: "2026-12-03T06:55:00+01:00",
        snoozes: 3, maxSnoozes: 3),
      next: [], history: [], inputs: [])
    report.clockPlausible = false
    report.clockLastJump = .seconds(-303)
    let text = StatusText.render(report)
    #expect(
      text.contains(
        "ringing: work until 2026-12-03 06:55, snoozed 3 times of 3 "
          + "(no more snoozes: only stop ends it)"), "\(text)")
    #expect(text.contains("the clock is wrong: earlier than this alarmclock's release"))
    #expect(text.contains("last set: jumped -5 min 3 s"))
    // Snoozed with snoozes left: no refusal announced.
    report.session?.snoozes = 1
    report.session?.state = .snoozed
    #expect(!StatusText.render(report).contains("no more snoozes"))
  }
}
