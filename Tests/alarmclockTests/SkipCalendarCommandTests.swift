import AudioTestSupport
import Foundation
import Testing

/// `check`, `next` and `list` with `skip` ranges and `skip_calendars`, through the binary.
@Suite struct SkipCalendarCommandTests {
  static let fixtures = CLI.repo.appendingPathComponent("Tests/Fixtures/icalendar")

  /// A config beside copies of the fixtures `names`.
  private func setUp(_ dir: TempDir, _ config: String, _ names: [String]) throws -> String {
    for name in names {
      let text = try String(
        contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
      _ = try dir.write(name, text)
    }
    return try dir.write("alarms.toml", config)
  }

  @Test func checkPrintsTheCalendarsWarningsAndRefusesAMissingFile() throws {
    let dir = try TempDir("cal")
    defer { dir.remove() }
    let path = try setUp(
      dir,
      """
      [defaults]
      skip_calendars = ["malformed.ics"]

      [[alarm]]
      time = "06:45"
      days = "weekdays"
      """, ["malformed.ics"])
    let ok = try CLI.run(["check", "--config", path])
    #expect(ok.status == 0, "\(ok.stderr)")
    let ics = dir.path + "/malformed.ics"
    #expect(
      ok.stderr.contains(
        "\(ics):9:1: warning: rrule freq=hourly is not supported on an all-day event; "
          + "event 'Every hour' dropped"))
    #expect(ok.stderr.contains("\(ics):28:1: warning: exdate '2027060' is not a date, ignored"))

    _ = try dir.write(
      "alarms.toml", "[[alarm]]\ntime = \"06:45\"\nskip_calendars = [\"holidays.ics\"]\n")
    let bad = try CLI.run(["check", "--config", path])
    #expect(bad.status == 1)
    #expect(
      bad.stderr.contains(
        "\(path):3:19: skip calendar '\(dir.path)/holidays.ics': cannot open: No such file"))
    let next = try CLI.run(["next", "--config", path])
    #expect(next.status != 0)
  }

  @Test func nextSaysWhyOccurrencesAreSkippedInTextAndJSON() throws {
    let dir = try TempDir("cal")
    defer { dir.remove() }
    let path = try setUp(
      dir,
      """
      [settings]
      timezone = "Europe/Berlin"

      [[alarm]]
      id = "office"
      label = "Office"
      time = "06:45"
      days = "weekdays"
      skip_calendars = ["google-us-holidays.ics"]
      skip = [2027-12-27, { from = 2027-12-28, to = 2028-01-04 }]
      """, ["google-us-holidays.ics"])
    let from = "2027-12-23T12:00:00+01:00"
    let text = try CLI.run(["next", "--config", path, "--from", from])
    #expect(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("Wed 06:45 Office") == true, "\(text.stdout)")
    #expect(
      Array(lines.dropFirst()) == [
        "  skipped: Christmas Eve (2027-12-24)", "  skipped: 2027-12-27",
        "  skipped: vacation 2027-12-28..2028-01-04",
      ])
    let zh = try CLI.run(
      ["next", "--config", path, "--from", from], environment: ["LANG": "zh_TW.UTF-8"])
    #expect(zh.stdout.contains("  略過：Christmas Eve（2027-12-24）\n"))
    #expect(zh.stdout.contains("  略過：休假 2027-12-28..2028-01-04\n"))

    let json = try CLI.run(["next", "--config", path, "--from", from, "--json"])
    #expect(json.status == 0)
    #expect(json.stdout.contains("\"at\":\"2028-01-05T06:45:00+01:00\""))
    #expect(
      json.stdout.contains(
        "\"skipped\":[{\"date\":\"2027-12-24\",\"kind\":\"calendar\",\"reason\":\"Christmas Eve\"},"
          + "{\"date\":\"2027-12-27\",\"kind\":\"date\",\"reason\":\"2027-12-27\"},"
          + "{\"date\":\"2027-12-28\",\"kind\":\"range\",\"reason\":\"vacation 2027-12-28..2028-01-04\"}"
      ), "\(json.stdout)")
  }

  /// A Google-style export in Asia/Taipei over 17 months from `next --from`: the days off
  /// past the 400-day table are skipped as the first ones are (issue 24: they rang).
  @Test func nextOverSeventeenMonthsSkipsTheLateDaysOff() throws {
    let dir = try TempDir("cal")
    defer { dir.remove() }
    let path = try setUp(
      dir,
      """
      [settings]
      timezone = "Asia/Taipei"

      [[alarm]]
      id = "work"
      time = "06:30"
      days = "weekdays"
      skip_calendars = ["google-taipei-export.ics"]
      """, ["google-taipei-export.ics"])
    let run = try CLI.run(
      ["next", "--config", path, "--json", "--from", "2026-09-01", "--count", "800"])
    #expect(run.status == 0, "\(run.stderr)")
    let firings = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    let dates = Set(firings.compactMap { ($0["at"] as? String)?.prefix(10).description })
    #expect(firings.count == 800)
    // Thanksgiving, the off-site (a bimonthly rule with UNTIL, two days by DURATION), the
    // Christmas trip and the New Year break of 2027: past the table, still days off.
    for off in ["2027-11-25", "2027-12-15", "2027-12-16", "2027-12-24", "2027-12-31"] {
      let rings = dates.contains(off)
      #expect(!rings, "rings on \(off), a day off")
    }
    // The EXDATE'd off-site, the cancelled event, a timed event's day: they ring.
    for on in ["2027-04-15", "2027-03-10", "2026-11-10", "2027-11-26", "2027-12-30"] {
      let rings = dates.contains(on)
      #expect(rings, "silent on \(on)")
    }
  }

  /// `list` answers for now: the calendar is written around today.
  @Test func listSaysWhyTheNextOccurrencesAreSkipped() throws {
    let dir = try TempDir("cal")
    defer { dir.remove() }
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    func day(_ n: Int, _ format: String) -> String {
      let f = DateFormatter()
      f.calendar = utc
      f.timeZone = utc.timeZone
      f.locale = Locale(identifier: "en_US_POSIX")
      f.dateFormat = format
      return f.string(from: utc.date(byAdding: .day, value: n, to: Date())!)
    }
    _ = try dir.write(
      "closed.ics",
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:\(day(2, "yyyyMMdd"))\r\n"
        + "DTEND;VALUE=DATE:\(day(4, "yyyyMMdd"))\r\nSUMMARY:Gym closed\r\nEND:VEVENT\r\n"
        + "END:VCALENDAR\r\n")
    let path = try dir.write(
      "alarms.toml",
      """
      [settings]
      timezone = "UTC"

      [[alarm]]
      id = "gym"
      time = "12:00"
      days = "daily"
      skip_calendars = ["closed.ics"]
      skip = [{ from = \(day(0, "yyyy-MM-dd")), to = \(day(1, "yyyy-MM-dd")) }]
      """)
    let r = try CLI.run(["list", "--config", path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "  skipped: Gym closed (\(day(2, "yyyy-MM-dd"))..\(day(3, "yyyy-MM-dd")))\n"))
    #expect(
      r.stdout.contains("  skipped: vacation \(day(0, "yyyy-MM-dd"))..\(day(1, "yyyy-MM-dd"))"))
    let json = try CLI.run(["list", "--config", path, "--json"])
    #expect(json.stdout.contains("\"kind\":\"calendar\",\"reason\":\"Gym closed\""))
  }

  @Test func aCalendarCoveringEveryDayIsWarnedByCheckAndNext() throws {
    let dir = try TempDir("cal")
    defer { dir.remove() }
    _ = try dir.write(
      "always.ics",
      "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20200101\nRRULE:FREQ=DAILY\n"
        + "SUMMARY:Always\nEND:VEVENT\nEND:VCALENDAR\n")
    let path = try dir.write(
      "alarms.toml",
      "[[alarm]]\ntime = \"06:00\"\ndays = \"daily\"\nlabel = \"Wake\"\nskip_calendars = [\"always.ics\"]\n"
    )
    let check = try CLI.run(["check", "--config", path])
    #expect(check.status == 0)
    #expect(check.stderr.contains("\(path):1:1: warning: 'Wake' will not ring before "))
    let next = try CLI.run(["next", "--config", path])
    #expect(next.stdout.contains("  warning: 'Wake' will not ring before "))
    #expect(next.stdout.contains("... and more skipped occurrences"))
  }

  @Test func editSetsAndUnsetsSkipCalendarsAndRefusesAMissingFile() throws {
    let dir = try TempDir("cal")
    defer { dir.remove() }
    let path = try setUp(
      dir, "[[alarm]]\nid = \"gym\"\ntime = \"07:00\"\ndays = \"daily\"\n",
      ["thunderbird-us.ics"])
    let missing = try CLI.run(["edit", "gym", "--config", path, "--skip-calendar", "gone.ics"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("skip calendar '\(dir.path)/gone.ics': cannot open"))
    #expect(missing.stderr.contains("nothing was changed"))
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("skip_calendars") == false)

    let set = try CLI.run([
      "edit", "gym", "--config", path, "--skip-calendar", "thunderbird-us.ics",
    ])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(
      try String(contentsOfFile: path, encoding: .utf8).contains(
        "skip_calendars = [\"thunderbird-us.ics\"]\n"))
    let unset = try CLI.run(["edit", "gym", "--config", path, "--unset", "skip_calendars"])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("skip_calendars") == false)
  }
}
