import AlarmCore
import AlarmPlatform
import AlarmService

/// The alarm list as `alarmclock list` shows it, and its `--json` objects (the web API's
/// `GET /api/alarms` returns exactly these).
public struct AlarmListing: Sendable {
  /// The alarms, sorted by time, then id.
  public var alarms: [Alarm]
  /// Ids of one-offs the service has rung (their config unchanged since).
  public var done: Set<String>
  public var text: AlarmText

  /// Sorts `config`'s alarms and reads which one-offs are done from the state file in
  /// `stateDir` (else the config's `state_dir`, else the system default).
  public init(config: Config, stateDir: String?, text: AlarmText) {
    alarms = config.alarms.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    done = Self.doneOneOffs(config, stateDir: stateDir)
    self.text = text
  }

  /// One alarm's JSON object.
  public func json(_ a: Alarm) -> JSONValue {
    .object([
      "id": .string(a.id), "time": .string(a.time.description),
      "label": .string(text.label(a)), "enabled": .bool(a.enabled),
      "done": .bool(done.contains(a.id)),
      "repeat": .string(text.summary(a)),
      "days": .array(a.days.days.map { .string($0.key) }),
      "date": a.date.map { .string($0.description) } ?? .null,
      "sound": a.sound.map(JSONValue.string) ?? .null,
    ])
  }

  /// Every alarm's object, in order.
  public var json: JSONValue { .array(alarms.map(json)) }

  /// One-offs the service has rung (their config unchanged since), from its state file.
  /// An unreadable or missing state file means none: listing works without a service.
  public static func doneOneOffs(_ config: Config, stateDir: String?) -> Set<String> {
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

/// The upcoming firings computed from the config alone, as `alarmclock next --json`
/// prints them.
public enum UpcomingListing {
  /// The next `count` firings after `start`, as JSON objects `{id, label, at, time, sound}`.
  public static func json(
    config: Config, zone: TimeZoneRules, after start: Instant, count: Int, text: AlarmText
  ) -> JSONValue {
    let schedule = Schedule(alarms: config.alarms, zone: zone)
    let firings = schedule.upcoming(after: start, limit: count, marks: ScheduleMarks())
    let byID = Dictionary(config.alarms.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    return .array(
      firings.map { f in
        let alarm = byID[f.alarmID]
        return .object([
          "id": .string(f.alarmID),
          "label": .string(alarm.map(text.label) ?? ""),
          "at": .string(ISO8601Text.format(f.at, in: zone)),
          "time": .string(f.time.description),
          "sound": alarm?.sound.map(JSONValue.string) ?? .null,
        ])
      })
  }
}
