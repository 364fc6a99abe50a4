import AlarmCore
import AlarmPlatform
import Testing

@Suite struct HookEnvironmentTests {
  let berlin = try! TimeZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")

  @Test func alarmVariablesUseLocalTimeWithOffset() {
    // 2027-03-28 04:45 UTC: the first morning of summer time in Berlin.
    let call = HookCall(
      event: .preRing, alarmID: "weekday-0645", label: "Work",
      firing: Instant(seconds: 1_806_209_100))
    #expect(
      HookEnvironment.variables(for: call, zone: berlin) == [
        "ALARM_ID": "weekday-0645", "ALARM_LABEL": "Work", "ALARM_EVENT": "pre_ring",
        "ALARM_TIME": "2027-03-28T06:45:00+02:00",
      ])
  }

  @Test func aMissingLabelIsTheDefaultLabel() {
    let call = HookCall(
      event: .missed, alarmID: "a", label: nil, firing: Instant(seconds: 1_799_991_000))
    let vars = HookEnvironment.variables(
      for: call, zone: berlin, defaultLabel: AlarmText(.traditionalChinese).defaultLabel)
    #expect(vars["ALARM_LABEL"] == "鬧鐘")
    #expect(vars["ALARM_EVENT"] == "missed")
    #expect(vars["ALARM_TIME"] == "2027-01-15T06:30:00+01:00")
    #expect(HookEnvironment.variables(for: call, zone: .utc)["ALARM_LABEL"] == "Alarm")
  }

  @Test func idlePressHasTheEventAndEmptyAlarmFields() {
    #expect(
      HookEnvironment.variables(for: .idlePress) == [
        "ALARM_ID": "", "ALARM_LABEL": "", "ALARM_EVENT": "idle_press", "ALARM_TIME": "",
      ])
  }
}
