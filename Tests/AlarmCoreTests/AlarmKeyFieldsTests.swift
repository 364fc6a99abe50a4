import AlarmCore
import Testing

/// The one declaration of each alarm key's option, help, `--unset` and API use.
@Suite struct AlarmKeyFieldsTests {
  @Test func everyKeyHasItsOwnOptionAndHelp() {
    let flags = AlarmKey.allCases.map(\.option.flag)
    #expect(Set(flags).count == flags.count, "\(flags)")
    let help = AlarmKey.optionsHelp
    for key in AlarmKey.allCases where key != .time {
      #expect(help.contains(key.option.flag), "\(key)")
      #expect(!key.help.isEmpty && key.help.allSatisfy { $0.count <= 60 }, "\(key)")
    }
    #expect(help.contains("--no-snooze") && !help.contains("--time"))
    // Aligned as the other commands' help: the text starts at column 20.
    #expect(help.contains("\n  --volume N        0 to 100 (percent)\n"))
  }

  @Test func unsetAndTheAPITakeTheDeclaredKeys() {
    #expect(!AlarmKey.unsettableKeys.contains(.time))
    #expect(AlarmKey.unsettableKeys.count == AlarmKey.allCases.count - 1)
    #expect(AlarmKey.apiKeys == AlarmKey.allCases)
    #expect(AlarmKey(spelled: "ring-for") == .ringFor && AlarmKey(spelled: "ring_for") == .ringFor)
    #expect(AlarmKey(spelled: "ringfor") == nil)
  }

  /// `text(in:)` and `parse` are one table: each key's text of a decoded alarm parses to a
  /// value that, written into a file and decoded again, gives the same text back.
  @Test func everyKeysTextParsesBackToItsValue() throws {
    let file = """
      [[alarm]]
      id = "all"
      time = "06:45:30"
      date = 2027-03-28
      label = "Every key"
      sound = "birds.mp3"
      sound_order = "rotate"
      volume = 55
      ramp = "45s"
      snooze = "7m"
      max_snoozes = 4
      ring_for = "12m"
      escalate_after = "3m"
      escalate_volume = 95
      escalate_sound = "loud.wav"
      skip = [2027-12-24, { from = 2027-07-19, to = 2027-07-30 }]
      skip_calendars = []
      enabled = false

      [[alarm]]
      id = "days"
      time = "07:00"
      days = ["mon", "fri"]
      """
    let decoded = try #require(ConfigDecoder.decode(file, path: "/etc/a.toml").config)
    for alarm in decoded.alarms {
      var lines = ["[[alarm]]"]
      for key in AlarmKey.allCases {
        let text = key.text(in: alarm)
        if text.isEmpty { continue }
        let value = try key.parse(text).get()
        #expect(key.same(text, as: alarm), "\(key)")
        lines.append("\(key.rawValue) = \(value.toml)")
      }
      let again = try #require(
        ConfigDecoder.decode(lines.joined(separator: "\n"), path: "/etc/a.toml").config?.alarms
          .first)
      for key in AlarmKey.allCases {
        #expect(key.text(in: again) == key.text(in: alarm), "\(alarm.id) \(key)")
      }
    }
    let all = decoded.alarms[0]
    #expect(AlarmKey.skip.text(in: all) == "2027-07-19..2027-07-30\n2027-12-24")
    #expect(AlarmKey.skipCalendars.text(in: all) == "none")
    #expect(AlarmKey.ringFor.same("720s", as: all) && !AlarmKey.ringFor.same("11m", as: all))
    #expect(AlarmKey.skip.same("2027-12-24, 2027-07-19..2027-07-30", as: all))
  }
}
