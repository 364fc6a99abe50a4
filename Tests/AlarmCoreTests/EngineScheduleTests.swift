import AlarmCore
import Testing

/// The engine driven by the real Schedule in a real zone (Europe/Berlin
/// from /usr/share/zoneinfo), with wall times as people set them.
@Suite struct EngineScheduleTests {
  func berlinEngine(_ alarms: [Alarm], state: ServiceState = ServiceState()) throws -> (
    AlarmEngine, TimeZoneRules
  ) {
    let berlin = try zone("Europe/Berlin")
    return (
      AlarmEngine(alarms: alarms, source: Schedule(alarms: alarms, zone: berlin), state: state),
      berlin
    )
  }

  @Test func weekdayAlarmAcrossAWeekendWithSkipAndSnooze() throws {
    let work = Alarm(id: "work", time: clock("06:45"), days: .weekdays, label: "Work")
    var (e, tz) = try berlinEngine([work])
    _ = e.advance(to: tz.wall("2026-12-04", "22:00"))  // Friday night
    #expect(e.nextWake(now: tz.wall("2026-12-04", "22:00")) == tz.wall("2026-12-07", "06:45"))

    let r = e.skip("work", now: tz.wall("2026-12-04", "22:00"))
    #expect(r.firing?.date == day("2026-12-07"))
    #expect(e.nextWake(now: tz.wall("2026-12-04", "22:00")) == tz.wall("2026-12-08", "06:45"))
    #expect(e.advance(to: tz.wall("2026-12-07", "06:45")).sound.isEmpty)

    let ring = tz.wall("2026-12-08", "06:45")
    #expect(e.advance(to: ring).sound == ["start work 600s"])
    #expect(e.state.marks.skipNext.isEmpty)
    #expect(e.snooze(now: ring + .seconds(30)).until == tz.wall("2026-12-08", "06:54:30"))
    #expect(e.advance(to: tz.wall("2026-12-08", "06:54:30")).sound == ["start work 600s"])
    #expect(e.stop(now: tz.wall("2026-12-08", "06:55")).isOK)
    #expect(
      e.upcoming(after: tz.wall("2026-12-08", "06:55"), count: 2).map { tz.text($0.at) } == [
        "2026-12-09T06:45:00+01:00", "2026-12-10T06:45:00+01:00",
      ])
  }

  /// A daily 02:30 on the spring-forward night rings at 03:30 (RFC 5545);
  /// a restart across it during the outage records it missed, once.
  @Test func dstGapAndARestartAcrossIt() throws {
    let early = Alarm(id: "early", time: clock("02:30"), days: .daily)
    var (e, tz) = try berlinEngine([early])
    _ = e.advance(to: tz.wall("2027-03-28", "01:00"))
    let gap = e.nextWake(now: tz.wall("2027-03-28", "01:00"))
    #expect(gap.map(tz.text) == "2027-03-28T03:30:00+02:00")

    let saved = try StateCodec.decode(StateCodec.encode(e.state))
    var (down, _) = try berlinEngine([early], state: saved)
    let a = down.advance(to: tz.wall("2027-03-28", "09:00"))
    #expect(a.hooks == ["missed early"])
    #expect(down.state.history.map(\.firing) == [tz.wall("2027-03-28", "03:30")])
  }

  @Test func oneOffWithoutDateRingsOnceAtTheNextOccurrence() throws {
    let nap = Alarm(id: "nap", time: clock("14:30"))
    var (e, tz) = try berlinEngine([nap])
    _ = e.advance(to: tz.wall("2026-12-02", "15:00"))  // armed after today's 14:30
    #expect(e.nextWake(now: tz.wall("2026-12-02", "15:00")) == tz.wall("2026-12-03", "14:30"))
    #expect(e.advance(to: tz.wall("2026-12-03", "14:30")).sound == ["start nap 600s"])
    _ = e.stop(now: tz.wall("2026-12-03", "14:31"))
    #expect(e.nextWake(now: tz.wall("2026-12-03", "14:31")) == nil)
    #expect(e.skip("nap", now: tz.wall("2026-12-03", "14:31")).error?.code == .nothingToSkip)
  }
}
