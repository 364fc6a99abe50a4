import AlarmCore
import Testing

/// `announce`, `announce_every` and `[voice] quiet_hours`: decoded from real TOML with
/// every error at its line:col, the same keys for the CLI, the page and the API through
/// `AlarmKey`, and the wake plan that a reminder's due time moves earlier.
@Suite struct AnnounceConfigTests {
  @Test func announceIsInheritedAndTurnedOffPerAlarm() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        announce = true
        announce_every = "30s"

        [[alarm]]
        id = "work"
        time = "06:45"

        [[alarm]]
        id = "nap"
        time = "14:00"
        announce = false

        [voice]
        quiet_hours = "22:00-07:00"
        """))
    #expect(config.alarm(id: "work")?.announce == true)
    #expect(config.alarm(id: "work")?.announceEvery == .seconds(30))
    #expect(config.alarm(id: "nap")?.announce == false)
    let quiet = try #require(config.voice.quietHours)
    #expect(quiet.description == "22:00-07:00")
    #expect(quiet.contains(LocalTime(hour: 23, minute: 59, second: 0)))
    #expect(quiet.contains(LocalTime(hour: 6, minute: 59, second: 59)))
    #expect(!quiet.contains(LocalTime(hour: 7, minute: 0, second: 0)))
    #expect(!quiet.contains(LocalTime(hour: 12, minute: 0, second: 0)))
    let day = try #require(QuietHours("13:00-14:30:30"))
    #expect(day.contains(LocalTime(hour: 14, minute: 30, second: 29)))
    #expect(!day.contains(LocalTime(hour: 12, minute: 59, second: 59)))
  }

  @Test func badValuesAreErrorsAtTheirPlace() {
    let found = messages(
      """
      [[alarm]]
      time = "06:45"
      announce = "yes"
      announce_every = "5s"

      [voice]
      quiet_hours = "22:00"
      """)
    #expect(found.contains { $0.hasPrefix("3:12: ") && $0.contains("true or false") }, "\(found)")
    #expect(found.contains { $0.hasPrefix("4:18: ") && $0.contains("15s") }, "\(found)")
    #expect(
      found.contains {
        $0 == "7:15: 'quiet_hours' must be two times of day like \"22:00-07:00\", not \"22:00\""
      }, "\(found)")
    #expect(QuietHours("07:00-07:00") == nil)
    #expect(QuietHours("7:00-08:00") == nil)
  }

  @Test func theKeysForTheCommandsThePageAndTheAPI() {
    #expect(AlarmKey.announce.option.flag == "--announce")
    #expect(AlarmKey.announce.option.value == "on|off")
    #expect(AlarmKey.announce.parse("on") == .success(.boolean(true)))
    #expect(AlarmKey.announce.parse("off") == .success(.boolean(false)))
    #expect(AlarmKey.announceEvery.parse("2m") == .success(.string("2m")))
    if case .failure(let e) = AlarmKey.announceEvery.parse("10s") {
      #expect(e.expectation.contains("15s to 1h"))
    } else {
      Issue.record("10s is under the range")
    }
    var alarm = Alarm(id: "a", time: LocalTime(hour: 6, minute: 0, second: 0))
    #expect(AlarmKey.announce.text(in: alarm) == "off")
    alarm.announce = true
    #expect(AlarmKey.announce.text(in: alarm) == "on")
    #expect(AlarmKey.announceEvery.text(in: alarm) == "1m")
    #expect(AlarmKey.unsettableKeys.contains(.announce))
  }

  @Test func aDueTimeWakesEarlierButIsNoPreparePoint() {
    let f = Firing(
      alarmID: "a", at: Instant(seconds: 1000), date: LocalDate(year: 1970, month: 1, day: 1),
      time: LocalTime(hour: 0, minute: 16, second: 40))
    let plan = WakePlan(deadline: Instant(seconds: 998), prepare: f)
    #expect(plan.waking(at: nil) == plan)
    #expect(plan.waking(at: Instant(seconds: 999)) == plan)
    let early = plan.waking(at: Instant(seconds: 500))
    #expect(early.deadline == Instant(seconds: 500))
    #expect(!early.isPreparePoint)
  }
}
