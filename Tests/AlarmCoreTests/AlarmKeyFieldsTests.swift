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
    #expect(!AlarmKey.apiKeys.contains(.skip) && !AlarmKey.apiKeys.contains(.skipCalendars))
    #expect(AlarmKey(spelled: "ring-for") == .ringFor && AlarmKey(spelled: "ring_for") == .ringFor)
    #expect(AlarmKey(spelled: "ringfor") == nil)
  }
}
