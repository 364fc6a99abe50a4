import AlarmCore
import Testing

@Suite struct ConfigAlarmIDTests {
  func ids(_ text: String) -> [String] {
    decode(text).config?.alarms.map(\.id) ?? ["<invalid>"]
  }

  @Test func explicitIDSyntax() {
    for id in ["work", "a", "0645", "work-day_2", String(repeating: "a", count: 64)] {
      #expect(AlarmID.isValid(id), "\(id)")
    }
    for id in ["", "Work", "-work", "_a", "wörk", "a b", "a.b", String(repeating: "a", count: 65)] {
      #expect(!AlarmID.isValid(id), "\(id)")
    }
  }

  @Test func slugs() {
    #expect(AlarmID.slug("Work") == "work")
    #expect(AlarmID.slug("  Take the bins out! ") == "take-the-bins-out")
    #expect(AlarmID.slug("Flight to Taipei (BR 61)") == "flight-to-taipei-br-61")
    #expect(AlarmID.slug("起床") == "")
    #expect(AlarmID.slug("Café au lait") == "caf-au-lait")
    #expect(AlarmID.slug("a very long label that goes on and on") == "a-very-long-label-that-g")
    #expect(AlarmID.slug("abcdefghijklmnopqrstuvw xyz") == "abcdefghijklmnopqrstuvw")
  }

  @Test func derivedFromLabelAndTime() {
    let text = """
      [[alarm]]
      label = "Work"
      time = "06:45"
      [[alarm]]
      time = "06:45"
      [[alarm]]
      label = "起床"
      time = "07:00"
      [[alarm]]
      label = "Nap"
      time = "13:30:15"
      """
    #expect(ids(text) == ["work-0645", "alarm-0645", "alarm-0700", "nap-133015"])
  }

  @Test func collisionsGetSuffixesInFileOrder() {
    let text = """
      [[alarm]]
      label = "Work"
      time = "06:45"
      [[alarm]]
      label = "work"
      time = "06:45"
      days = "weekends"
      [[alarm]]
      label = "WORK!"
      time = "06:45"
      """
    #expect(ids(text) == ["work-0645", "work-0645-2", "work-0645-3"])
  }

  @Test func derivedIDsNeverTakeAnExplicitOne() {
    let text = """
      [[alarm]]
      label = "Work"
      time = "06:45"
      [[alarm]]
      time = "07:00"
      id = "work-0645"
      [[alarm]]
      id = "work-0645-2"
      time = "08:00"
      [[alarm]]
      label = "Work"
      time = "06:45"
      """
    #expect(ids(text) == ["work-0645-3", "work-0645", "work-0645-2", "work-0645-4"])
  }

  @Test func stableAcrossUnrelatedEdits() {
    let before = """
      [[alarm]]
      label = "Work"
      time = "06:45"
      days = "weekdays"
      [[alarm]]
      time = "09:00"
      """
    // Another alarm added in front, settings of these changed, order swapped.
    let after = """
      [[alarm]]
      label = "Gym"
      time = "18:00"
      [[alarm]]
      time = "09:00"
      volume = 20
      days = "weekends"
      [[alarm]]
      label = "Work"
      time = "06:45"
      days = "daily"
      sound = "other"
      """
    #expect(ids(before) == ["work-0645", "alarm-0900"])
    #expect(ids(after) == ["gym-1800", "alarm-0900", "work-0645"])
  }
}
