import AlarmCore
import TOML
import Testing

/// Limits on what a config may hold: string lengths, terminal controls in labels, the
/// number of alarms, and how much of the source a message echoes.
@Suite struct ConfigLimitTests {
  @Test func aLabelOfTwoHundredCharactersIsAccepted() {
    // 200 characters, 800 UTF-8 bytes: the limit counts characters.
    let label = String(repeating: "鬧", count: 100) + String(repeating: "😀", count: 100)
    #expect(messages("[[alarm]]\ntime = \"06:45\"\nlabel = \"\(label)\"\n") == [])
  }

  @Test func aLabelOverTwoHundredCharactersIsRefused() {
    let label = String(repeating: "a", count: 201)
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nlabel = \"\(label)\"\n")
        == ["3:9: 'label' is too long: at most 200 characters"])
  }

  @Test func aHugeLabelIsRefusedAndNotEchoed() {
    let label = String(repeating: "x", count: 1 << 20)
    let result = decode("[[alarm]]\ntime = \"06:45\"\nlabel = \"\(label)\"\n")
    #expect(result.config == nil)
    #expect(result.formatted.allSatisfy { $0.utf8.count < 200 })
  }

  @Test func aLabelOfManyBytesPerCharacterIsBoundedInBytes() {
    // 200 characters, 18 bytes each: within the character limit, over the byte limit.
    let label = String(repeating: "👨‍👩‍👧", count: 200)
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nlabel = \"\(label)\"\n")
        == ["3:9: 'label' is too long: 3600 bytes in UTF-8, at most 1000"])
  }

  /// The longest label the config accepts survives the state file and a status reply:
  /// a label the service took must never make it throw its state away.
  @Test func theLongestLabelSurvivesTheStateFileAndAStatusReply() throws {
    let label = String(repeating: "👍🏽", count: 125)  // 125 characters, 1000 bytes
    let config = validConfig("[[alarm]]\nid = \"a\"\ntime = \"06:45\"\nlabel = \"\(label)\"\n")
    #expect(config?.alarms.first?.label == label)
    var state = ServiceState()
    state.history = [
      HistoryEntry(
        kind: .rung, alarmID: "a", label: label, firing: Instant(seconds: 1_764_657_900),
        at: Instant(seconds: 1_764_657_901))
    ]
    #expect(try StateCodec.decode(StateCodec.encode(state)) == state)
    let reply = ControlReply.ok(
      .status(
        StatusReport(
          version: "0.1.0", config: ConfigStatus(path: "a.toml", ok: true),
          clockSynchronized: true,
          session: SessionStatus(
            id: "a", label: label, state: .ringing, until: "2026-12-03T06:55:00+01:00",
            snoozes: 0),
          next: [UpcomingFiring(id: "a", label: label, at: "2026-12-04T06:45:00+01:00")],
          history: [], inputs: [])))
    #expect(try ControlReply(line: reply.encodedLine().dropLast(), for: .status) == reply)
  }

  @Test(arguments: [
    (#"\u001B[31mred"#, "U+001B"), (#"ring\u0007"#, "U+0007"), (#"a\tb"#, "U+0009"),
    (#"\u0000"#, "U+0000"), (#"\u007F"#, "U+007F"), (#"\u009B2J"#, "U+009B"),
  ])
  func controlCharactersInALabelAreRefused(escaped: String, codePoint: String) {
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nlabel = \"\(escaped)\"\n")
        == [
          "3:9: 'label' must not contain the control character \(codePoint) (a terminal would act on it)"
        ])
  }

  @Test(arguments: ["202A", "202B", "202C", "202D", "202E", "2066", "2067", "2068", "2069"])
  func bidiControlsInALabelAreRefused(hex: String) {
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nlabel = \"abc\\u\(hex)def\"\n")
        == ["3:9: 'label' must not contain the bidi control U+\(hex) (it reorders text on screen)"])
  }

  @Test func cjkEmojiAndJoinersStayAllowed() {
    let text = """
      [[alarm]]
      time = "06:45"
      label = "起床 ⏰ 👨‍👩‍👧 café עברית"
      """
    #expect(validConfig(text)?.alarms.first?.label == "起床 ⏰ 👨‍👩‍👧 café עברית")
  }

  @Test func addAndEditShareTheLabelRule() {
    guard case .failure(let error) = AlarmValueText.label("wake\u{1B}[2J") else {
      Issue.record("an ESC in --label was accepted")
      return
    }
    #expect(
      error.expectation.hasSuffix(
        "this label must not contain the control character U+001B (a terminal would act on it)"))
    guard case .failure = AlarmValueText.label("abc\u{202E}def") else {
      Issue.record("a bidi override in --label was accepted")
      return
    }
    guard case .failure = AlarmValueText.label(String(repeating: "z", count: 201)) else {
      Issue.record("a 201-character --label was accepted")
      return
    }
    #expect(AlarmValueText.label("起床 😀") == .success(.string("起床 😀")))
  }

  @Test func longPathsAndNamesAreRefusedAtTheirValue() {
    let long = String(repeating: "d", count: 300)
    let path = "/" + String(repeating: "p", count: 4100)
    let text = """
      [settings]
      sound_dirs = ["/ok", "\(path)"]
      [audio]
      device = "\(long)"
      [hooks]
      pre_ring = ["/bin/echo", "\(path)"]
      [[alarm]]
      time = "06:45"
      sound = "\(path)"
      """
    #expect(
      messages(text) == [
        "2:22: 'sound_dirs' entry is too long: 4101 bytes, at most 4095",
        "4:10: 'device' is too long: 300 bytes, at most 255",
        "6:12: 'pre_ring' is too long: 4112 bytes, at most 4096",
        "9:9: 'sound' is too long: 4101 bytes, at most 4095",
      ])
  }

  @Test func aSocketPathLongerThanAUnixSocketTakesIsRefused() {
    let ok = "/run/" + String(repeating: "s", count: 102)  // 107 bytes
    #expect(messages("[settings]\nsocket = \"\(ok)\"\n") == [])
    #expect(
      messages("[settings]\nsocket = \"\(ok)x\"\n")
        == ["2:10: 'socket' is too long for a Unix socket: 108 bytes, at most 107"])
    // Relative: counted once resolved against /etc/alarmclock (15 bytes and a "/").
    let relative = String(repeating: "r", count: 100)
    #expect(
      messages("[settings]\nsocket = \"\(relative)\"\n")
        == [
          "2:10: 'socket' is too long for a Unix socket: 116 bytes once resolved against "
            + "the config's directory, at most 107"
        ])
  }

  @Test func tenThousandAlarmsAreAllowed() {
    let text = String(repeating: "[[alarm]]\ntime = \"06:45\"\n", count: Config.maxAlarms)
    let result = decode(text)
    #expect(result.errors.isEmpty)
    #expect(result.config?.alarms.count == 10_000)
  }

  @Test func theFirstAlarmOverTheLimitIsNamed() {
    let text = String(repeating: "[[alarm]]\ntime = \"06:45\"\n", count: Config.maxAlarms + 2)
    #expect(
      messages(text) == [
        "20001:1: too many alarms: at most 10000 are allowed, and this is alarm 10001 of 10002"
      ])
  }

  @Test func aLongNumberIsCutInTheParserMessage() {
    let digits = String(repeating: "9", count: 5000)
    let result = decode("[defaults]\nvolume = \(digits)\n")
    #expect(
      result.diagnostics.map(\.description) == [
        "2:10: integer \(String(repeating: "9", count: 40))… does not fit in 64 bits"
      ])
  }

  @Test func aLongBareWordAndKeyAreCut() {
    let word = String(repeating: "w", count: 500)
    #expect(
      messages("[defaults]\nsound = \(word)\n")
        == ["2:9: invalid value '\(String(repeating: "w", count: 40))…' (strings must be quoted)"])
    #expect(
      messages("[defaults]\n\(word) = 1\n")
        == ["2:1: unknown key '\(String(repeating: "w", count: 40))…' in [defaults]"])
  }

  @Test func aLongStringIsCutInTheDecoderMessage() {
    let text = String(repeating: "t", count: 1000)
    #expect(
      messages("[[alarm]]\ntime = \"\(text)\"\n")
        == [
          "2:8: 'time' must be a time like \"06:45\" or \"06:45:30\", not \"\(String(repeating: "t", count: 40))\"…"
        ])
  }

  @Test func messagesNeverCarryTerminalControls() {
    let text = """
      "\\u001B[2J" = 1
      [[alarm]]
      time = "\\u009B31m\\u202E"
      """
    #expect(
      messages(text) == [
        #"1:1: unknown top-level key '"\u001B[2J"'"#,
        #"3:8: 'time' must be a time like "06:45" or "06:45:30", not "\u009B31m\u202E""#,
      ])
    guard case .failure(let error) = AlarmValueText.time("\u{1B}[2J") else {
      Issue.record("an ESC was taken for a time")
      return
    }
    #expect(error.expectation == #"a time like 06:45 or 06:45:30, not "\u001B[2J""#)
  }

  @Test func excerptKeepsShortTextAndCutsLongText() {
    #expect(TOMLFormat.excerpt("06:45") == "06:45")
    #expect(
      TOMLFormat.excerpt(String(repeating: "é", count: 40)) == String(repeating: "é", count: 40))
    #expect(
      TOMLFormat.excerpt(String(repeating: "é", count: 41)) == String(repeating: "é", count: 40)
        + "…")
  }
}
