import AlarmCore
import Testing

@Suite struct ConfigExampleTests {
  /// examples/alarms.toml, read from the repository.
  static func exampleText() throws -> String {
    let here = #filePath
    let root = here.split(separator: "/").dropLast(3).joined(separator: "/")
    return try readText("/" + root + "/examples/alarms.toml")
  }

  @Test func bundledExampleDecodesWithoutDiagnostics() throws {
    let text = try Self.exampleText()
    let result = ConfigDecoder.decode(text, path: "examples/alarms.toml")
    #expect(result.formatted == [])
    let config = try #require(result.config)
    #expect(
      config.alarms.map(\.id) == [
        "work", "weekend-0900", "gym-1830", "flight-to-taipei-0415", "tea-1500",
      ])
    #expect(config.settings.soundDirs == ["examples/../sounds"])
    #expect(config.alarms[0].skip.count == 3)
    #expect(config.alarms[1].enabled == false)
    #expect(config.alarms[3].date == LocalDate(year: 2027, month: 6, day: 12))
    #expect(config.hooks.timeout == .seconds(30))
  }

  /// The commented-out [button] and [[input]] examples are valid too once uncommented.
  @Test func commentedHardwareExamplesAreValid() throws {
    let text = try Self.exampleText()
    var lines: [Substring] = []
    var inBlock = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "# [button]" || line == "# [[input]]" { inBlock = true }
      if line.isEmpty { inBlock = false }
      lines.append(inBlock && line.hasPrefix("# ") ? line.dropFirst(2) : line)
    }
    let result = ConfigDecoder.decode(lines.joined(separator: "\n"), path: "x.toml")
    #expect(result.formatted == [])
    let config = try #require(result.config)
    #expect(config.buttons == [ButtonConfig(chip: "gpiochip0", line: .name("GPIO17"))])
    #expect(config.inputs.count == 1)
    #expect(config.inputs.first?.device == .glob("/dev/input/by-id/*-event-kbd"))
    #expect(config.inputs.first?.stop.map(\.code) == [1, 128])
  }

  @Test func tenThousandAlarms() throws {
    var text = "[defaults]\nvolume = 70\n"
    for i in 0..<10_000 {
      let (h, m) = (i / 60 % 24, i % 60)
      let hh = h < 10 ? "0\(h)" : "\(h)"
      let mm = m < 10 ? "0\(m)" : "\(m)"
      text += "\n[[alarm]]\n"
      if i % 2 == 0 { text += "id = \"a\(i)\"\n" }
      text += "label = \"L\(i % 7)\"\ntime = \"\(hh):\(mm)\"\ndays = [\"mon\", \"fri\"]\n"
    }
    let result = ConfigDecoder.decode(text, path: "big.toml")
    #expect(result.diagnostics.isEmpty)
    let config = try #require(result.config)
    #expect(config.alarms.count == 10_000)
    #expect(Set(config.alarms.map(\.id)).count == 10_000)
    #expect(config.alarms[0].id == "a0")
    #expect(config.alarms[1].id == "l1-0001")
    #expect(config.alarms[9_999].time == LocalTime(hour: 22, minute: 39))
    #expect(config.alarms.allSatisfy { $0.volume == 70 && $0.days == DaySet([.monday, .friday]) })
    #expect(config.alarmSources.count == 10_000)
  }
}
