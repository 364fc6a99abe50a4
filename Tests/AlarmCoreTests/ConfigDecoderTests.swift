import AlarmCore
import TOML
import Testing

/// Valid configs: every key decodes to the value it says, defaults fill the rest.
@Suite struct ConfigDecoderTests {
  @Test func emptyFileIsAllDefaults() throws {
    let config = try #require(validConfig(""))
    #expect(config.defaults == AlarmDefaults())
    #expect(config.defaults.volume == 80 && config.defaults.snooze == .seconds(540))
    #expect(config.defaults.ramp == .seconds(30) && config.defaults.ringFor == .seconds(600))
    #expect(config.settings == Settings())
    #expect(config.audio == AudioConfig(device: "default"))
    #expect(config.buttons.isEmpty && config.inputs.isEmpty && config.alarms.isEmpty)
    #expect(config.hooks == HooksConfig(preRingLead: .seconds(600), timeout: .seconds(30)))
  }

  @Test func defaultsApplyToAlarmsUnlessOverridden() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        sound = "chime"
        volume = 55
        ramp = "1m30s"
        snooze = "5m"
        ring_for = "15m"

        [[alarm]]
        time = "06:45"

        [[alarm]]
        time = "07:00"
        sound = "/srv/loud.mp3"
        volume = 100
        ramp = "0s"
        snooze = "10m"
        ring_for = "1h"
        """))
    let (a, b) = (config.alarms[0], config.alarms[1])
    #expect(a.sound == "chime" && a.volume == 55 && a.ramp == .seconds(90))
    #expect(a.snooze == .seconds(300) && a.ringFor == .seconds(900))
    #expect(b.sound == "/srv/loud.mp3" && b.volume == 100 && b.ramp == .zero)
    #expect(b.snooze == .seconds(600) && b.ringFor == .seconds(3600))
  }

  @Test func snoozeSwitch() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        snooze = "4m"
        [[alarm]]
        time = "06:00"
        snooze = false
        [[alarm]]
        time = "06:01"
        snooze = true
        """))
    #expect(config.alarms[0].snooze == nil)
    #expect(config.alarms[1].snooze == .seconds(240))
    // Off by default, switched on per alarm: the standard 9 minutes.
    let off = try #require(
      validConfig("[defaults]\nsnooze = false\n[[alarm]]\ntime = \"06:00\"\nsnooze = true\n"))
    #expect(off.defaults.snooze == nil)
    #expect(off.alarms[0].snooze == .seconds(540))
  }

  @Test func alarmKeys() throws {
    let config = try #require(
      validConfig(
        """
        [[alarm]]
        id = "work"
        time = "06:45:30"
        days = ["mon", "wed", "Friday"]
        label = "Work"
        enabled = false
        skip = [2027-12-25, "2028-01-01"]

        [[alarm]]
        time = 07:15:00
        days = "daily"
        label = ""

        [[alarm]]
        time = "08:00"
        days = "weekends"
        [[alarm]]
        time = "08:00"
        days = "weekdays"
        [[alarm]]
        time = "08:00"
        days = "never"
        date = 2028-02-29
        [[alarm]]
        time = "08:00"
        days = []
        [[alarm]]
        time = "08:00"
        days = "tue"
        """))
    let a = config.alarms[0]
    #expect(a.id == "work" && a.time == LocalTime(hour: 6, minute: 45, second: 30))
    #expect(a.days == DaySet([.monday, .wednesday, .friday]))
    #expect(a.label == "Work" && a.enabled == false)
    #expect(
      a.skip == [
        LocalDate(year: 2027, month: 12, day: 25), LocalDate(year: 2028, month: 1, day: 1),
      ]
    )
    #expect(config.alarms[1].time == LocalTime(hour: 7, minute: 15))
    #expect(config.alarms[1].days == .daily && config.alarms[1].label == nil)
    #expect(config.alarms[1].enabled)
    #expect(config.alarms[2].days == .weekends && config.alarms[3].days == .weekdays)
    #expect(config.alarms[4].isOneOff && config.alarms[4].date == LocalDate(iso: "2028-02-29"))
    #expect(config.alarms[5].days == .never)
    #expect(config.alarms[6].days == DaySet([.tuesday]))
  }

  @Test func inlineAlarmTables() throws {
    let text = "alarm = [{ time = \"06:00\", label = \"A\" }, { time = \"07:00\" }]\n"
    let config = try #require(validConfig(text))
    #expect(config.alarms.map(\.id) == ["a-0600", "alarm-0700"])
    let source = try #require(config.alarmSources["a-0600"])
    #expect(source.header == nil && !source.hasExplicitID)
  }

  @Test func settingsAndAudio() throws {
    let config = try #require(
      validConfig(
        """
        [settings]
        timezone = "America/Argentina/Buenos_Aires"
        sound_dirs = ["/srv/sounds", "mine", "../shared"]
        state_dir = "state"
        socket = "/run/a.sock"

        [audio]
        device = "plughw:CARD=Device,DEV=0"
        mixer = "PCM"
        mixer_device = "hw:1"
        fallback_devices = ["default", "pulse"]
        """))
    #expect(
      config.settings
        == Settings(
          timezone: "America/Argentina/Buenos_Aires",
          soundDirs: ["/srv/sounds", "/etc/alarmclock/mine", "/etc/alarmclock/../shared"],
          stateDir: "/etc/alarmclock/state", socket: "/run/a.sock"))
    #expect(
      config.audio
        == AudioConfig(
          device: "plughw:CARD=Device,DEV=0", mixer: "PCM", mixerDevice: "hw:1",
          fallbackDevices: ["default", "pulse"]))
  }

  @Test func relativePathsWithoutADirectoryStayRelative() throws {
    let result = ConfigDecoder.decode("[settings]\nsound_dirs = [\"s\"]\n", path: "alarms.toml")
    #expect(result.config?.settings.soundDirs == ["s"])
    let rooted = ConfigDecoder.decode("[settings]\nstate_dir = \"s\"\n", path: "/alarms.toml")
    #expect(rooted.config?.settings.stateDir == "/s")
  }

  @Test func positionsOfValues() throws {
    let config = try #require(
      validConfig(
        """
        [settings]
        timezone = "Mars/Olympus"
        [[alarm]]
        time = "06:00"
        [[alarm]]
          sound = "x"
          time = "07:00"
        """))
    #expect(
      config.positions["settings.timezone"] == SourcePosition(line: 2, column: 12, offset: 22))
    #expect(config.positions["alarm[1].sound"]?.description == "6:11")
    #expect(config.positions["alarm[0].time"]?.description == "4:8")
    #expect(config.positions["alarm[0].sound"] == nil)
    #expect(config.positions["alarm[2].time"] == nil)
    #expect(config.positions["settings"]?.description == "1:1")
    #expect(config.positions["alarm[x].time"] == nil)
    #expect(config.positions[""] == nil)
  }

  @Test func positionsInsideListsAndOfASingleButton() throws {
    let config = try #require(
      validConfig(
        """
        [button]
        chip = "gpiochip0"
        line = 17
        [[alarm]]
        time = "06:00"
        skip = [2027-01-01, 2027-12-25]
        """))
    #expect(config.positions["button.line"]?.description == "3:8")
    #expect(config.positions["button[0].line"]?.description == "3:8")
    #expect(config.positions["button[1].line"] == nil)
    #expect(config.positions["alarm[0].skip[1]"]?.description == "6:21")
    #expect(config.positions["alarm[0].skip[2]"] == nil)
  }

  @Test func alarmSourceBlocksRunToTheNextHeader() throws {
    let text = """
      # my alarms
      [[alarm]]   # first
      time = "06:00"

      # the second one
        [[alarm]]
      id = "b"
      time = "07:00"
      [hooks]
      timeout = "5s"
      [[alarm]]
      time = "08:00"
      """
    let config = try #require(validConfig(text))
    let bytes = Array(text.utf8)
    func block(_ id: String) -> String? {
      guard let s = config.alarmSources[id] else { return nil }
      return String(decoding: bytes[s.block], as: UTF8.self)
    }
    #expect(block("alarm-0600") == "[[alarm]]   # first\ntime = \"06:00\"\n\n# the second one\n")
    #expect(block("b") == "  [[alarm]]\nid = \"b\"\ntime = \"07:00\"\n")
    #expect(block("alarm-0800") == "[[alarm]]\ntime = \"08:00\"")
    let b = try #require(config.alarmSources["b"])
    #expect(b.start.description == "6:1" && b.hasExplicitID)
    #expect(b.header?.start.description == "6:3")
    #expect(config.alarmSources["alarm-0600"]?.hasExplicitID == false)
  }
}
