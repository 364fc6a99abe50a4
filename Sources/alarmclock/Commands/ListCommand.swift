import AlarmCore
import AlarmPlatform
import AlarmService

/// `alarmclock list`: the alarms, sorted by time, with their repeat summaries.
struct ListCommand: Command {
  static let name = "list"
  static let summary = "list the alarms, sorted by time"
  static let help = """
    usage: alarmclock list [--config PATH] [--state-dir DIR] [--json]

    Lists the alarms sorted by time: time, on/off, repeat summary, label and id.
    A one-off that has rung shows as done (read from the service's state file in
    --state-dir, else the config's state_dir, else /var/lib/alarmclock, when it
    can be read). Under an alarm, the occurrences skipped before its next firing
    (skip dates and ranges, skip_calendars days off) and why; --json adds them as
    skipped, a list of {date, kind, reason}.
    Summaries and labels follow the locale (LC_ALL, LC_MESSAGES, LANG): English,
    or Traditional Chinese for zh_TW.
    """
  var configPath: String?
  var json: Bool
  var stateDir: String?

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    stateDir = try arguments.option("--state-dir")
    json = arguments.flag("--json")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    guard let loaded = OfflineConfig.load(configPath, env: env) else { return ExitCode.failure }
    let text = AlarmText(DisplayLocale(environment: env))
    let alarms = loaded.config.alarms.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    let done = doneOneOffs(loaded.config)
    let now = currentInstant()
    let schedule = Schedule(
      alarms: loaded.config.alarms, zone: loaded.zone, daysOff: loaded.daysOff(at: now))
    let skipped = Dictionary(
      alarms.map { a in
        (
          a.id,
          done.contains(a.id) ? [] : schedule.skipped(of: a.id, after: now, marks: ScheduleMarks())
        )
      }, uniquingKeysWith: { a, _ in a })
    if json {
      let items: [JSONValue] = alarms.map { a in
        .object([
          "id": .string(a.id), "time": .string(a.time.description),
          "label": .string(text.label(a)), "enabled": .bool(a.enabled),
          "done": .bool(done.contains(a.id)),
          "repeat": .string(text.summary(a)),
          "days": .array(a.days.days.map { .string($0.key) }),
          "date": a.date.map { .string($0.description) } ?? .null,
          "sound": a.sound.map(JSONValue.string) ?? .null,
          "skipped": .array((skipped[a.id] ?? []).map(\.json)),
          "sound_order": .string(a.soundOrder.rawValue),
        ])
      }
      printOut(JSONValue.array(items).encoded())
      return ExitCode.ok
    }
    for a in alarms {
      printOut(
        "\(text.time(a.time))  \(done.contains(a.id) ? text.done : text.onOff(a.enabled))  \(text.summary(a))  \(text.label(a))  [\(a.id)]"
      )
      let list = skipped[a.id] ?? []
      for line in text.skippedLines(list, cut: list.count == Schedule.skippedLimit) {
        printOut("  " + line)
      }
    }
    return ExitCode.ok
  }

  /// One-offs the service has rung (their config unchanged since), from its state file.
  /// An unreadable or missing state file means none: `list` works without a service.
  private func doneOneOffs(_ config: Config) -> Set<String> {
    let dir = stateDir ?? config.settings.stateDir ?? ServicePaths.defaultStateDir
    guard let bytes = try? FileSystem.readFile(dir + "/state.json", limit: StateCodec.maxFileSize),
      let state = try? StateCodec.decode(bytes)
    else { return [] }
    return Set(
      config.alarms.filter { a in
        guard a.isOneOff, let mark = state.marks.oneOffs[a.id] else { return false }
        return mark.doneAt != nil && mark.fingerprint == OneOffMark.fingerprint(of: a)
      }.map(\.id))
  }
}
