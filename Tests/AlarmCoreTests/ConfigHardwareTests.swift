import AlarmCore
import Testing

/// `[button]`, `[[input]]` and `[hooks]`.
@Suite struct ConfigHardwareTests {
  @Test func buttonTableWithDefaults() throws {
    let config = try #require(validConfig("[button]\nchip = \"gpiochip0\"\nline = 17\n"))
    let b = try #require(config.buttons.first)
    #expect(b.chip == "gpiochip0" && b.line == .offset(17))
    #expect(b.bias == .pullUp && b.activeLow)
    #expect(b.debounce == .milliseconds(10) && b.longPress == .milliseconds(1500))
    #expect(b.actions == PressActions(shortPress: .snooze, longPress: .stop, idlePress: .none))
  }

  @Test func severalButtonsWithEveryKey() throws {
    let config = try #require(
      validConfig(
        """
        [hooks]
        idle_press = ["/usr/local/bin/say-next"]

        [[button]]
        chip = "pinctrl-rp1"
        line = "GPIO17"
        bias = "pull-down"
        active_low = false
        debounce = "5ms"
        long_press = "2s"
        on_short_press = "stop"
        on_long_press = "none"
        on_idle_press = "hook"

        [[button]]
        chip = "/dev/gpiochip4"
        line = 27
        bias = "as-is"
        debounce = "0s"
        """))
    #expect(config.buttons.count == 2)
    let a = config.buttons[0]
    #expect(a.chip == "pinctrl-rp1" && a.line == .name("GPIO17") && a.bias == .pullDown)
    #expect(!a.activeLow && a.debounce == .milliseconds(5) && a.longPress == .seconds(2))
    #expect(a.actions == PressActions(shortPress: .stop, longPress: .none, idlePress: .hook))
    #expect(config.buttons[1].bias == .asIs && config.buttons[1].debounce == .zero)
    #expect(config.positions["button[1].line"]?.description == "17:8")
  }

  @Test func buttonErrors() {
    let text = """
      [button]
      bias = "pullup"
      line = -3
      debounce = "2s"
      long_press = "50ms"
      on_short_press = "snoze"
      on_idle_press = "hook"
      """
    #expect(
      messages(text) == [
        "1:1: this [button] has no 'chip' (e.g. chip = \"gpiochip0\" or \"pinctrl-rp1\")",
        "2:8: 'bias' must be \"pull-up\", \"pull-down\", \"disabled\" or \"as-is\", "
          + "not \"pullup\"; did you mean \"pull-up\"?",
        "3:8: 'line' must be a line offset from 0 or a line name like \"GPIO17\", not -3",
        "4:12: 'debounce' must be between 0s and 1s, not 2s",
        "5:14: 'long_press' must be between 100ms and 10s, not 50ms",
        "6:18: 'on_short_press' must be \"snooze\", \"stop\" or \"none\", not \"snoze\"; did you "
          + "mean \"snooze\"?",
        "7:17: on_idle_press = \"hook\" needs an 'idle_press' command in [hooks]",
      ])
    #expect(
      messages("[[button]]\nchip = \"gpiochip0\"\n")
        == ["1:1: this [[button]] has no 'line' (e.g. line = 17 or \"GPIO17\")"])
    #expect(
      messages("button = 3\n")
        == [
          "1:10: 'button' must be a table ([button] or [[button]]), not an integer "
            + "(write [[button]])"
        ])
  }

  @Test func inputs() throws {
    let config = try #require(
      validConfig(
        """
        [[input]]
        device = "auto"
        snooze = "KEY_SPACE"

        [[input]]
        device = "/dev/input/by-id/*-event-kbd"
        snooze = ["KEY_ENTER", "BTN_0"]
        stop = ["KEY_STOP"]
        grab = true
        long_press = "800ms"

        [[input]]
        device = "/dev/input/event3"
        stop = []
        snooze = ["KEY_A"]
        on_idle_press = "none"
        """))
    #expect(config.inputs.count == 3)
    #expect(config.inputs[0].device == .auto && !config.inputs[0].grab)
    #expect(config.inputs[0].snooze == [InputKey(name: "KEY_SPACE", code: 57)])
    #expect(config.inputs[0].longPress == .milliseconds(1500))
    let kbd = config.inputs[1]
    #expect(kbd.device == .glob("/dev/input/by-id/*-event-kbd") && kbd.grab)
    #expect(kbd.snooze.map(\.code) == [28, 0x100] && kbd.stop.map(\.code) == [128])
    #expect(kbd.longPress == .milliseconds(800))
    #expect(config.inputs[2].device == .path("/dev/input/event3"))
  }

  @Test func inputErrors() {
    let text = """
      [[input]]
      device = "event0"
      snooze = ["KEY_SPCE", "space", 5]
      stop = ["KEY_POWER"]
      grab = "yes"

      [[input]]
      device = "auto"

      [[input]]
      snooze = ["KEY_Q"]
      stop = ["KEY_Q"]
      """
    #expect(
      messages(text) == [
        "2:10: 'device' must be a path like \"/dev/input/event0\", a glob like "
          + "\"/dev/input/by-id/*-event-kbd\" or \"auto\", not \"event0\"",
        "3:11: unknown key name \"KEY_SPCE\" in 'snooze'; did you mean \"KEY_SPACE\"?",
        "3:23: unknown key name \"space\" in 'snooze'; did you mean \"KEY_SPACE\"?",
        "3:32: 'snooze' entries must be key names, not an integer",
        "4:9: warning: KEY_POWER is usually taken by systemd-logind (it may power the machine "
          + "off); use e.g. KEY_STOP",
        "5:8: 'grab' must be true or false, not a string",
        "7:1: this [[input]] has no 'snooze' or 'stop' keys",
        "10:1: this [[input]] has no 'device' (a path, a glob, or \"auto\")",
        "12:8: \"KEY_Q\" is in both 'snooze' and 'stop'",
      ])
    #expect(
      messages("[input]\ndevice = \"auto\"\n")
        == ["1:1: 'input' must be an array of tables, not a table (write [[input]])"])
  }

  @Test func keyCodesComeFromTheKernelHeader() {
    #expect(KeyCodes.byName["KEY_ESC"] == 1)
    #expect(KeyCodes.byName["KEY_SPACE"] == 57)
    #expect(KeyCodes.byName["KEY_STOP"] == 128)
    #expect(KeyCodes.byName["KEY_POWER"] == 116)
    #expect(KeyCodes.byName["BTN_SOUTH"] == 0x130 && KeyCodes.byName["BTN_A"] == 0x130)
    #expect(KeyCodes.byName["KEY_MAX"] == nil && KeyCodes.byName["KEY_RESERVED"] == nil)
    #expect(KeyCodes.byName.count > 500)
  }

  /// Every numeric KEY_/BTN_ define of the installed header is in the generated table
  /// (made from Debian trixie's header, Linux 6.12: a superset of bookworm's, so the test
  /// holds on both, and under scripts/test-arm64 against the arm64 sysroot's).
  @Test func keyCodesMatchTheInstalledHeader() throws {
    let header = try readText("/usr/include/linux/input-event-codes.h")
    var checked = 0
    for line in header.split(separator: "\n") {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard words.count >= 3, words[0] == "#define",
        words[1].hasPrefix("KEY_") || words[1].hasPrefix("BTN_"),
        !words[1].hasSuffix("_MAX"), !words[1].hasSuffix("_CNT"), words[1] != "KEY_RESERVED"
      else { continue }
      let text = words[2]
      let value = text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
      guard let value else { continue }
      #expect(KeyCodes.byName[String(words[1])].map(Int.init) == value, "\(words[1])")
      checked += 1
    }
    #expect(checked > 500)
  }

  @Test func hooks() throws {
    let config = try #require(
      validConfig(
        """
        [hooks]
        pre_ring = ["/usr/local/bin/lamp", "on", "--fade=20m"]
        ring = "/usr/bin/logger -t alarm 'ringing now' \\"quoted \\\\\\" word\\""
        snooze = "notify-send snoozed"
        pre_ring_lead = "20m"
        timeout = "10s"
        """))
    #expect(config.hooks.commands[.preRing] == ["/usr/local/bin/lamp", "on", "--fade=20m"])
    #expect(
      config.hooks.commands[.ring]
        == ["/usr/bin/logger", "-t", "alarm", "ringing now", "quoted \" word"])
    #expect(config.hooks.commands[.snooze] == ["notify-send", "snoozed"])
    #expect(config.hooks.commands[.stop] == nil)
    #expect(config.hooks.preRingLead == .seconds(1200) && config.hooks.timeout == .seconds(10))

    let shell = try #require(
      validConfig("[hooks]\nshell = true\nstop = \"lamp off | logger\"\nmissed = [\"/bin/true\"]\n")
    )
    #expect(shell.hooks.commands[.stop] == ["/bin/sh", "-c", "lamp off | logger"])
    #expect(shell.hooks.commands[.missed] == ["/bin/true"])
  }

  @Test func hookErrors() {
    let text = """
      [hooks]
      ring = "lamp 'on"
      stop = ""
      snooze = []
      missed = ["/bin/x", 3]
      idle_press = 5
      pre_ring_lead = "5m"
      """
    #expect(
      messages(text) == [
        "2:8: 'ring' has an unterminated ' quote",
        "3:8: 'stop' must not be empty",
        "4:10: 'snooze' must name a program to run",
        "5:21: 'missed' entries must be strings, not an integer",
        "6:14: 'idle_press' must be a command: a string, or a list like [\"/usr/bin/lamp\", "
          + "\"on\"], not an integer",
        "7:17: warning: 'pre_ring_lead' has no effect without a 'pre_ring' command",
      ])
  }

  @Test func commandWords() {
    func words(_ s: String) -> [String]? { try? CommandWords.split(s).get() }
    #expect(words("a  b\tc") == ["a", "b", "c"])
    #expect(words("'a b' \"c d\" e\\ f") == ["a b", "c d", "e f"])
    #expect(words("\"a\\$b\\x\"") == ["a$b\\x"])
    #expect(words("''") == [""])
    #expect(words("a'b'c") == ["abc"])
    #expect(words("$HOME ~ *") == ["$HOME", "~", "*"])
    #expect(words("") == [])
    #expect(words("\"open") == nil)
    #expect(words("end\\") == nil)
  }
}
