import AlarmCore
import Testing

/// `max_snoozes` in `[defaults]` and per alarm.
@Suite struct ConfigSnoozeLimitTests {
  @Test func defaultsAndAlarmsSetIt() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        max_snoozes = 3

        [[alarm]]
        id = "work"
        time = "06:45"

        [[alarm]]
        id = "nap"
        time = "14:00"
        max_snoozes = 0

        [[alarm]]
        id = "gym"
        time = "07:00"
        """))
    let byID = Dictionary(uniqueKeysWithValues: config.alarms.map { ($0.id, $0.maxSnoozes) })
    #expect(byID == ["work": 3, "nap": 0, "gym": 3])
    #expect(try #require(validConfig("[[alarm]]\ntime = \"06:45\"\n")).alarms[0].maxSnoozes == nil)
  }

  @Test func badValuesAreErrorsAtTheirPosition() {
    #expect(
      messages("[defaults]\nmax_snoozes = -1\n") == [
        "2:15: 'max_snoozes' must be an integer from 0 to 1000, not -1"
      ])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nmax_snoozes = \"3\"\n") == [
        "3:15: 'max_snoozes' must be an integer from 0 to 1000, not a string"
      ])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nmax_snooze = 3\n") == [
        "3:1: unknown key 'max_snooze' in [[alarm]]; did you mean 'max_snoozes'?"
      ])
  }
}
