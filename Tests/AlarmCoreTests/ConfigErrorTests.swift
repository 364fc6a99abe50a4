import AlarmCore
import Testing

/// Every class of config error, with its exact message and `line:col`.
@Suite struct ConfigErrorTests {
  @Test func syntaxErrorIsOneDiagnosticAtItsPosition() {
    let result = decode(
      """
      [[alarm]]
      time = "06:45
      days = "daily"
      """)
    #expect(result.config == nil)
    #expect(result.diagnostics.count == 1)
    #expect(result.diagnostics.first?.severity == .error)
    #expect(result.diagnostics.first?.position.line == 2)
  }

  @Test func everyErrorOfAFileIsReportedInSourceOrder() {
    let text = """
      [defaults]
      volme = 80

      [[alarm]]
      time = "6:45"
      days = "weekday"
      snoze = "9m"

      [[alarm]]
      id = "Work"
      time = 06:45:00
      ramp = 30
      ring_for = "0s"
      volume = "loud"
      """
    #expect(
      messages(text) == [
        "2:1: unknown key 'volme' in [defaults]; did you mean 'volume'?",
        "5:8: 'time' must be a time like \"06:45\" or \"06:45:30\", not \"6:45\"",
        "6:8: 'days' must be \"daily\", \"weekdays\", \"weekends\", \"never\" or a list like "
          + "[\"mon\", \"wed\"], not \"weekday\"; did you mean \"weekdays\"?",
        "7:1: unknown key 'snoze' in [[alarm]]; did you mean 'snooze'?",
        "10:6: 'id' must be lower-case letters, digits, '-' and '_', starting with a letter or "
          + "digit (at most 64 characters), not \"Work\"",
        "12:8: 'ramp' must be a duration like \"30s\", \"9m\" or \"1h30m\", not the bare number "
          + "30 (write \"30s\" for seconds)",
        "13:12: 'ring_for' must be between 1s and 12h, not 0s",
        "14:10: 'volume' must be an integer from 0 to 100, not a string",
      ])
    #expect(decode(text).config == nil)
  }

  @Test func formattedWithPathAndWarningPrefix() {
    let result = decode(
      """
      [[alarm]]
      time = "06:45"
      volume = 0
      days = ["mon", "mon"]
      lable = "x"
      """)
    #expect(
      result.formatted == [
        "/etc/alarmclock/alarms.toml:3:10: warning: 'volume' is 0: the alarm will ring silently",
        "/etc/alarmclock/alarms.toml:4:16: warning: 'days' lists \"mon\" twice",
        "/etc/alarmclock/alarms.toml:5:1: unknown key 'lable' in [[alarm]]; did you mean 'label'?",
      ])
    #expect(result.errors.count == 1 && result.warnings.count == 2)
  }

  @Test func summaryLine() {
    #expect(decode("").summary == "/etc/alarmclock/alarms.toml: ok, 0 alarms (0 enabled)")
    let two =
      "[[alarm]]\ntime = \"06:45\"\nvolume = 0\n[[alarm]]\ntime = \"07:00\"\nenabled = false\n"
    #expect(
      decode(two).summary == "/etc/alarmclock/alarms.toml: ok, 2 alarms (1 enabled), 1 warning")
    let bad = "[[alarm]]\ntime = 1\nvolume = 0\n[[alarm]]\nlabel = 2\n"
    #expect(decode(bad).summary == "/etc/alarmclock/alarms.toml: 3 errors, 1 warning")
  }

  @Test func warningsAloneKeepTheConfig() {
    let result = decode("[[alarm]]\ntime = \"06:45\"\nvolume = 0\n")
    #expect(result.warnings.count == 1)
    #expect(result.config?.alarms.first?.volume == 0)
  }

  @Test func unknownKeys() {
    #expect(
      messages("[alarms]\n") == ["1:2: unknown top-level key 'alarms'; did you mean 'alarm'?"])
    #expect(messages("colour = 1\n") == ["1:1: unknown top-level key 'colour'"])
    #expect(
      messages("[settings]\ntimezon = \"UTC\"\n")
        == ["2:1: unknown key 'timezon' in [settings]; did you mean 'timezone'?"])
    #expect(
      messages("[audio]\nmixer_dev = \"hw:0\"\n")
        == ["2:1: unknown key 'mixer_dev' in [audio]"])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nringfor = \"5m\"\n")
        == ["3:1: unknown key 'ringfor' in [[alarm]]; did you mean 'ring_for'?"])
    #expect(
      messages("[hooks]\nrign = \"x\"\n")
        == ["2:1: unknown key 'rign' in [hooks]; did you mean 'ring'?"])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nextra.deep = 1\n")
        == ["3:1: unknown key 'extra' in [[alarm]]"])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nsound.name = \"x\"\n")
        == ["3:1: 'sound' must be a string, not a table"])
  }

  @Test func wrongTypes() {
    let text = """
      [settings]
      sound_dirs = "/srv/sounds"
      [audio]
      device = 3
      [[alarm]]
      time = 645
      enabled = "yes"
      label = 5
      days = 7
      skip = "2027-12-25"
      volume = 80.0
      sound = ""
      """
    #expect(
      messages(text) == [
        "2:14: 'sound_dirs' must be a list of directories, not a string",
        "4:10: 'device' must be a string, not an integer",
        "6:8: 'time' must be a time like \"06:45\" or \"06:45:30\", not an integer",
        "7:11: 'enabled' must be true or false, not a string",
        "8:9: 'label' must be a string, not an integer",
        "9:8: 'days' must be \"daily\", \"weekdays\", \"weekends\", \"never\" or a list like "
          + "[\"mon\", \"wed\"], not an integer",
        "10:8: 'skip' must be a list of dates like [2027-12-25, { from = 2027-07-19, to = 2027-07-30 }], not a string",
        "11:10: 'volume' must be an integer from 0 to 100, not a float",
        "12:9: 'sound' must not be empty",
      ])
  }

  @Test func tablesOfTheWrongShape() {
    #expect(
      messages("[alarm]\ntime = \"06:45\"\n")
        == ["1:1: 'alarm' must be an array of tables, not a table (write [[alarm]])"])
    #expect(
      messages("defaults = 5\n") == [
        "1:12: 'defaults' must be a table ([defaults]), not an integer"
      ])
    #expect(
      messages("alarm = [1]\n") == [
        "1:10: 'alarm' entries must be tables ([[alarm]]), not an integer"
      ])
  }

  @Test func outOfRange() {
    let text = """
      [defaults]
      volume = 150
      ramp = "2h"
      snooze = "2h"
      ring_for = "13h"
      [[alarm]]
      time = "24:00"
      volume = -1
      snooze = "0s"
      [hooks]
      timeout = "0s"
      pre_ring_lead = "1.5s"
      """
    #expect(
      messages(text) == [
        "2:10: 'volume' must be an integer from 0 to 100, not 150",
        "3:8: 'ramp' must be between 0s and 1h, not 2h",
        "4:10: 'snooze' must be between 1s and 1h, not 2h",
        "5:12: 'ring_for' must be between 1s and 12h, not 13h",
        "7:8: 'time' must be a time like \"06:45\" or \"06:45:30\", not \"24:00\"",
        "8:10: 'volume' must be an integer from 0 to 100, not -1",
        "9:10: 'snooze' must be between 1s and 1h, not 0s "
          + "(write snooze = false to turn snooze off)",
        "11:11: 'timeout' must be between 1s and 1h, not 0s",
        "12:17: 'pre_ring_lead' must be a whole number of seconds, not 1.5s",
      ])
  }

  @Test func badDurations() {
    let text = """
      [[alarm]]
      time = "06:45"
      ramp = "30 sec"
      snooze = 9
      ring_for = 10.5
      """
    #expect(
      messages(text) == [
        "3:8: 'ramp' must be a duration like \"30s\", \"9m\" or \"1h30m\", not \"30 sec\"",
        "4:10: 'snooze' must be a duration like \"9m\", or true or false, not an integer",
        "5:12: 'ring_for' must be a duration like \"30s\", \"9m\" or \"1h30m\", not a float",
      ])
  }

  @Test func duplicateIDPointsAtTheSecondAndNamesTheFirst() {
    let text = """
      [[alarm]]
      id = "work"
      time = "06:45"

      [[alarm]]
      id = "gym"
      time = "18:00"

      [[alarm]]
      time = "07:00"
      id = "work"
      """
    #expect(messages(text) == ["11:6: duplicate id 'work' (first used at line 2)"])
  }

  @Test func duplicateIDOfAnAlarmWithOtherErrorsIsStillFound() {
    let text = """
      [[alarm]]
      id = "work"
      time = "25:00"
      [[alarm]]
      id = "work"
      time = "06:45"
      """
    #expect(
      messages(text) == [
        "3:8: 'time' must be a time like \"06:45\" or \"06:45:30\", not \"25:00\"",
        "5:6: duplicate id 'work' (first used at line 2)",
      ])
  }

  @Test func missingTime() {
    #expect(
      messages("[[alarm]]\nlabel = \"Work\"\n")
        == ["1:1: this [[alarm]] has no 'time' (e.g. time = \"06:45\")"])
  }

  @Test func dateTogetherWithDays() {
    let text = """
      [[alarm]]
      time = "06:45"
      days = "weekdays"
      date = 2027-03-28
      """
    #expect(
      messages(text) == [
        "4:8: 'date' cannot be combined with 'days' (line 3): an alarm with a date rings once "
          + "on that day"
      ])
    // "never" is no repeat, so it goes with a date.
    #expect(messages("[[alarm]]\ntime = \"06:45\"\ndays = \"never\"\ndate = 2027-03-28\n") == [])
  }

  @Test func datesThatDoNotExistOrAreNotDates() {
    let text = """
      [[alarm]]
      time = "06:45"
      date = "2027-02-29"
      skip = [2028-02-29, "2027-13-01", 5, "soon", 2027-01-01T06:00:00]
      """
    #expect(
      messages(text) == [
        "3:8: 'date' 2027-02-29 does not exist",
        "4:21: 'skip' date 2027-13-01 does not exist",
        "4:35: 'skip' entries must be a date like 2027-12-24 or a range like "
          + "{ from = 2027-07-19, to = 2027-07-30 }, not an integer",
        "4:38: 'skip' entries must be a date like 2027-12-24 or a range like "
          + "{ from = 2027-07-19, to = 2027-07-30 }, not \"soon\"",
        "4:46: 'skip' entries must be a date like 2027-12-24 or a range like "
          + "{ from = 2027-07-19, to = 2027-07-30 }, not a local date-time (the time "
          + "goes in 'time')",
      ])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\ndate = 2027-03-28T06:45:00\n") == [
        "3:8: 'date' must be a date like 2027-03-28, not a local date-time (the time goes in "
          + "'time')"
      ])
  }

  @Test func pastDateIsAWarningOnlyWhenTodayIsKnown() {
    let text = "[[alarm]]\ntime = \"06:45\"\ndate = 2027-03-28\n"
    #expect(messages(text) == [])
    #expect(messages(text, now: LocalDate(year: 2027, month: 3, day: 28)) == [])
    #expect(
      messages(text, now: LocalDate(year: 2027, month: 3, day: 29))
        == ["3:8: warning: 'date' 2027-03-28 is in the past: this alarm will not ring"])
  }

  @Test func daysEntries() {
    let text = """
      [[alarm]]
      time = "06:45"
      days = ["mon", "Funday", 3, "wed"]
      """
    #expect(
      messages(text) == [
        "3:16: 'days' entries must be weekday names \"mon\" to \"sun\", not \"Funday\"",
        "3:26: 'days' entries must be weekday names \"mon\" to \"sun\", not an integer",
      ])
  }

  @Test func skipDuplicatesAreWarned() {
    let text = "[[alarm]]\ntime = \"06:45\"\nskip = [2027-12-25, 2027-12-25]\n"
    #expect(messages(text) == ["3:21: warning: 'skip' lists 2027-12-25 twice"])
  }

  @Test func labelMustBeOneLine() {
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nlabel = \"a\\nb\"\n")
        == ["3:9: 'label' must be one line"])
  }

  @Test func timeWithAFraction() {
    #expect(
      messages("[[alarm]]\ntime = 06:45:00.5\n")
        == ["2:8: 'time' must be a whole number of seconds, not a fraction of a second"])
  }

  @Test func rampLongerThanRingForIsWarned() {
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nring_for = \"1m\"\nramp = \"2m\"\n") == [
        "4:8: warning: 'ramp' (2m) is longer than 'ring_for' (1m): the alarm stops before it "
          + "is at full volume"
      ])
  }

  @Test func timezoneSyntax() {
    #expect(
      messages("[settings]\ntimezone = \"Europe/../etc\"\n")
        == [
          "2:12: 'timezone' must be a time zone name like \"Europe/Berlin\", not \"Europe/../etc\""
        ])
    #expect(messages("[settings]\ntimezone = \"\"\n") == ["2:12: 'timezone' must not be empty"])
  }
}

@Suite struct ConfigRobustnessTests {
  @Test func signedOrSpacedTimesAreRejected() {
    for time in ["+6:45", "06:4 ", " 6:45", "06:45:+1", "０６:45"] {
      #expect(decode("[[alarm]]\ntime = \"\(time)\"\n").config == nil, "\(time)")
    }
  }

  /// Mutated versions of the example never crash the decoder, and every result
  /// is either a config or at least one error.
  @Test func mutatedExamplesNeverCrash() throws {
    let bytes = Array(try ConfigExampleTests.exampleText().utf8)
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ n: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(n))
    }
    let alphabet = Array("[]=\"'{},.#\n -_:0123456789aeiostzTFx".utf8)
    for _ in 0..<400 {
      var text = bytes
      for _ in 0..<(1 + next(4)) {
        let i = next(text.count)
        switch next(3) {
        case 0: text.remove(at: i)
        case 1: text.insert(alphabet[next(alphabet.count)], at: i)
        default: text[i] = alphabet[next(alphabet.count)]
        }
      }
      let result = ConfigDecoder.decode(String(decoding: text, as: UTF8.self), path: "m.toml")
      #expect((result.config != nil) != !result.errors.isEmpty)
    }
  }
}
