import AlarmCore

/// `alarmclock list`: the alarms, sorted by time, with their repeat summaries.
struct ListCommand: Command {
  static let name = "list"
  static let summary = "list the alarms, sorted by time"
  static let help = """
    usage: alarmclock list [--config PATH] [--json]

    Lists the alarms sorted by time: time, on/off, repeat summary, label and id.
    Summaries and labels follow the locale (LC_ALL, LC_MESSAGES, LANG): English,
    or Traditional Chinese for zh_TW.
    """
  var configPath: String?
  var json: Bool

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    json = arguments.flag("--json")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    guard let loaded = OfflineConfig.load(configPath, env: env) else { return ExitCode.failure }
    let text = AlarmText(DisplayLocale(environment: env))
    let alarms = loaded.config.alarms.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    if json {
      let items: [JSONValue] = alarms.map { a in
        .object([
          "id": .string(a.id), "time": .string(a.time.description),
          "label": .string(text.label(a)), "enabled": .bool(a.enabled),
          "repeat": .string(text.summary(a)),
          "days": .array(a.days.days.map { .string($0.key) }),
          "date": a.date.map { .string($0.description) } ?? .null,
          "sound": a.sound.map(JSONValue.string) ?? .null,
        ])
      }
      printOut(JSONValue.array(items).encoded())
      return ExitCode.ok
    }
    for a in alarms {
      printOut(
        "\(text.time(a.time))  \(text.onOff(a.enabled))  \(text.summary(a))  \(text.label(a))  [\(a.id)]"
      )
    }
    return ExitCode.ok
  }
}
