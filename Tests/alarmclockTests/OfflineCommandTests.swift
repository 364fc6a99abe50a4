import AudioTestSupport
import Testing

/// `check`, `list` and `next` on real config files, through the built binary.
@Suite struct OfflineCommandTests {
  let config = """
    # test config
    [settings]
    timezone = "Europe/Berlin"

    [[alarm]]
    id = "work"
    time = "06:45"
    days = "weekdays"
    label = "Work"

    [[alarm]]
    time = "02:30"
    days = "daily"
    label = "Night"

    [[alarm]]
    id = "off"
    time = "09:00"
    days = ["sat", "sun"]
    enabled = false
    """

  @Test func checkAcceptsTheBundledExample() throws {
    let r = try CLI.run([
      "check", "--config", CLI.repo.appendingPathComponent("examples/alarms.toml").path,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains(": ok, "))
  }

  @Test func checkReportsEveryErrorWithLineAndColumn() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("bad.toml", "[[alarm]]\ntime = \"25:00\"\nvolum = 3\n")
    let r = try CLI.run(["check", "--config", path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(path):2:8: "))
    #expect(r.stderr.contains("\(path):3:1: unknown key 'volum'"))
    #expect(r.stderr.contains("did you mean 'volume'?"))
  }

  @Test func checkReportsAnUnknownTimeZoneAtItsValue() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("tz.toml", "[settings]\ntimezone = \"Mars/Olympus\"\n")
    let r = try CLI.run(["check", "--config", path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(path):2:"))
    #expect(r.stderr.contains("Mars/Olympus"))
  }

  /// A sound name with `..` would leave its sound directory: an error at its value, not a
  /// ring that opens a file relative to the service's working directory.
  @Test func checkReportsASoundNameThatLeavesItsDirectory() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let text =
      "[defaults]\nsound = \"/usr/share/x.wav\"\n\n[[alarm]]\ntime = \"06:45\"\n"
      + "sound = \"../../x.wav\"\n"
    let path = try dir.write("sound.toml", text)
    let r = try CLI.run(["check", "--config", path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(path):6:9: "), "\(r.stderr)")
    #expect(r.stderr.contains("'../../x.wav' would leave its sound directory"), "\(r.stderr)")
    #expect(!r.stderr.contains(":2:"), "an absolute path is allowed: \(r.stderr)")
  }

  /// A newline, an escape or a NUL in `sound` (names and paths alike) is an error at its
  /// value, shown escaped: it never reaches the log or the status output raw.
  @Test func checkReportsControlCharactersInASound() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    for (value, code) in [
      (#"morning\nfake log line"#, "U+000A"), (#"\u001b[31mred"#, "U+001B"),
      (#"/sounds/x\u0000.wav"#, "U+0000"),
    ] {
      let path = try dir.write(
        "control.toml", "[[alarm]]\ntime = \"06:45\"\nsound = \"\(value)\"\n")
      let r = try CLI.run(["check", "--config", path])
      #expect(r.status == 1, "\(value)")
      #expect(
        r.stderr.contains(
          "\(path):3:9: a sound name must not contain control characters (\(code))"), "\(r.stderr)")
      #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(value)")
    }
  }

  @Test func checkOnAMissingFileFails() throws {
    let r = try CLI.run(["check", "--config", "/nonexistent/alarms.toml"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("/nonexistent/alarms.toml: cannot open"))
  }

  @Test func configPathFromEnvironment() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("a.toml", config)
    let r = try CLI.run(["check"], environment: ["ALARMCLOCK_CONFIG": path])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix(path))
  }

  @Test func listSortsByTimeWithSummaries() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("a.toml", config)
    let r = try CLI.run(["list", "--config", path])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("02:30") && lines[0].contains("Every day"))
    #expect(
      lines[1].hasPrefix("06:45") && lines[1].contains("Weekdays") && lines[1].contains("Work"))
    #expect(lines[2].contains("off") && lines[2].contains("Weekends"))
  }

  @Test func listInTraditionalChinese() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("a.toml", config)
    let r = try CLI.run(["list", "--config", path], environment: ["LANG": "zh_TW.UTF-8"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("上午 06:45"))
    #expect(r.stdout.contains("平日"))
    #expect(r.stdout.contains("每天"))
    #expect(r.stdout.contains("週末"))
  }

  @Test func nextJSONFollowsTheDSTGapRule() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("a.toml", config)
    // 2027-03-28 is the spring-forward night in Berlin: 02:30 rings at 03:30 CEST.
    let r = try CLI.run([
      "next", "--config", path, "--from", "2027-03-28T00:00:00+01:00", "--count", "2", "--json",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\"at\":\"2027-03-28T03:30:00+02:00\""))
    #expect(r.stdout.contains("\"at\":\"2027-03-29T02:30:00+02:00\""))
  }

  @Test func listJSONShowsTheSoundFolderAndItsOrder() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write(
      "a.toml",
      config.replacing(
        "label = \"Work\"",
        with: "label = \"Work\"\nsound = \"mornings/\"\nsound_order = \"rotate\""))
    let r = try CLI.run(["list", "--config", path, "--state-dir", dir.path, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains(#""sound":"mornings/","sound_order":"rotate""#), "\(r.stdout)")
    #expect(r.stdout.contains(#""sound":null,"sound_order":"shuffle""#))
    let bad = try dir.write("b.toml", "[defaults]\nsound_order = \"rotte\"\n")
    let check = try CLI.run(["check", "--config", bad])
    #expect(check.status != 0)
    #expect(check.stderr.contains("b.toml:2:15: 'sound_order' must be"), "\(check.stderr)")
    #expect(check.stderr.contains("did you mean \"rotate\"?"))
  }

  @Test func nextHumanForm() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("a.toml", config)
    let r = try CLI.run(["next", "--config", path, "--from", "2027-03-29T05:00:00+02:00"])
    #expect(r.status == 0)
    #expect(r.stdout == "Mon 06:45 Work (in 1 h 45 min)\n")
  }

  @Test func nextRejectsABadFrom() throws {
    let dir = try TempDir("cli")
    defer { dir.remove() }
    let path = try dir.write("a.toml", config)
    let r = try CLI.run(["next", "--config", path, "--from", "tomorrow"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("--from"))
  }
}
