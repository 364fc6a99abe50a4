import AlarmCore
import Testing

/// `[audio] buzzer` and the `audio_failed` hook.
@Suite struct ConfigBuzzerTests {
  @Test func buzzerByChipNameAndLineName() throws {
    let config = try #require(
      validConfig("[audio]\nbuzzer = { chip = \"gpiochip0\", line = \"GPIO18\" }\n"))
    #expect(config.audio.buzzer == BuzzerConfig(chip: "gpiochip0", line: .name("GPIO18")))
  }

  @Test func buzzerAsASubtableByLabelAndOffset() throws {
    let config = try #require(
      validConfig(
        "[audio]\ndevice = \"hw:1\"\n\n[audio.buzzer]\nchip = \"pinctrl-rp1\"\nline = 18\n"))
    #expect(config.audio.buzzer == BuzzerConfig(chip: "pinctrl-rp1", line: .offset(18)))
  }

  @Test func noBuzzerByDefault() throws {
    let config = try #require(validConfig("[audio]\ndevice = \"default\"\n"))
    #expect(config.audio.buzzer == nil)
  }

  @Test func aBadBuzzerTableIsAnErrorAtItsPosition() {
    func errors(_ line: String) -> [String] { messages("[audio]\n" + line + "\n") }
    #expect(
      errors("buzzer = \"GPIO18\"") == [
        "2:10: 'buzzer' must be a table like { chip = \"gpiochip0\", line = \"GPIO18\" }, "
          + "not a string"
      ])
    #expect(
      errors("buzzer = { chip = \"gpiochip0\" }") == [
        "2:1: this [audio] buzzer has no 'line' (e.g. line = 17 or \"GPIO17\")"
      ])
    #expect(
      errors("buzzer = { line = 18 }") == [
        "2:1: this [audio] buzzer has no 'chip' (e.g. chip = \"gpiochip0\" or \"pinctrl-rp1\")"
      ])
    #expect(
      errors("buzzer = { chip = \"gpiochip0\", line = 18, pin = 18 }").contains(
        "2:43: unknown key 'pin' in [audio] buzzer"))
    #expect(
      errors("buzzer = { chip = \"gpiochip0\", line = -1 }") == [
        "2:39: 'line' must be a line offset from 0 or a line name like \"GPIO17\", not -1"
      ])
    #expect(errors("buzzer = { chip = \"\", line = 18 }") == ["2:19: 'chip' must not be empty"])
  }

  @Test func audioFailedIsAHookEvent() throws {
    let config = try #require(
      validConfig("[hooks]\naudio_failed = [\"/usr/local/bin/notify\", \"speaker\"]\n"))
    #expect(config.hooks.commands[.audioFailed] == ["/usr/local/bin/notify", "speaker"])
  }
}
