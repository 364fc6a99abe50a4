import AlarmCore
import AlarmFiles
import AlarmPlatform

/// The alarm list as `alarmclock list` shows it, and its `--json` objects (the web API's
/// `GET /api/alarms` returns exactly these).
public struct AlarmListing {
  /// The alarms, sorted by time, then id.
  public var alarms: [Alarm]
  /// Ids of one-offs the service has rung (their config unchanged since).
  public var done: Set<String>
  /// Each alarm's occurrences skipped before its next firing, by id.
  public var skipped: [String: [SkippedOccurrence]]
  public var text: AlarmText

  /// Sorts the alarms, reads which one-offs are done from the state file in `stateDir`
  /// (else the config's `state_dir`, else the system default) and what is skipped after `now`.
  public init(_ loaded: OfflineConfig, stateDir: String?, text: AlarmText, now: Instant) {
    alarms = loaded.config.alarms.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    let marks = Self.savedMarks(loaded.config, stateDir: stateDir)
    let done = Self.doneOneOffs(loaded.config, marks: marks)
    self.done = done
    let schedule = Schedule(
      alarms: loaded.config.alarms, zone: loaded.zone, daysOff: loaded.daysOff(at: now))
    skipped = Dictionary(
      alarms.map { a in
        (
          a.id,
          done.contains(a.id) ? [] : schedule.skipped(of: a.id, after: now, marks: marks)
        )
      }, uniquingKeysWith: { a, _ in a })
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
      "skipped": .array((skipped[a.id] ?? []).map(\.json)),
      "sound_order": .string(a.soundOrder.rawValue),
    ])
  }

  /// Every alarm's object, in order.
  public var json: JSONValue { .array(alarms.map(json)) }

  /// The lines `list` prints.
  public var lines: [String] {
    alarms.flatMap { a in
      let list = skipped[a.id] ?? []
      return [
        "\(text.time(a.time))  \(done.contains(a.id) ? text.done : text.onOff(a.enabled))  \(text.summary(a))  \(text.label(a))  [\(a.id)]"
      ] + text.skippedLines(list, cut: list.count == Schedule.skippedLimit).map { "  " + $0 }
    }
  }

  /// One-offs the service has rung (their config unchanged since), by `marks` from its
  /// state file (`savedMarks`: none when it is missing, so listing works without a service).
  public static func doneOneOffs(_ config: Config, marks: ScheduleMarks) -> Set<String> {
    Set(
      config.alarms.filter { a in
        guard a.isOneOff, let mark = marks.oneOffs[a.id] else { return false }
        return mark.doneAt != nil && mark.fingerprint == OneOffMark.fingerprint(of: a)
      }.map(\.id))
  }

  /// The service's skip and one-off marks from its state file (none when it cannot be
  /// read): what `skip` and rung one-offs changed, which the config alone does not say.
  public static func savedMarks(_ config: Config, stateDir: String?) -> ScheduleMarks {
    guard
      let bytes = try? FileSystem.readFile(
        stateFile(config, stateDir: stateDir), limit: StateCodec.maxFileSize),
      let state = try? StateCodec.decode(bytes)
    else { return ScheduleMarks() }
    return state.marks
  }

  /// The service's state file: in `stateDir`, else the config's `state_dir`, else the
  /// system default.
  public static func stateFile(_ config: Config, stateDir: String?) -> String {
    (stateDir ?? config.settings.stateDir ?? ServicePaths.defaultStateDir) + "/state.json"
  }
}

/// The upcoming firings as `alarmclock next` shows them, offline or from the service (the
/// web API's `GET /api/next` returns exactly its `--json` objects). Both come from
/// `UpcomingFiring.list`, so they have one shape.
public struct UpcomingListing {
  public var firings: [UpcomingFiring]
  public var text: AlarmText
  /// Without firings (offline): the enabled alarms skipped days keep quiet (a calendar
  /// covering every day for years), each with its skipped occurrences, so `next` says why.
  public var quiet: [(label: String, skipped: [SkippedOccurrence])] = []

  /// The service's answer.
  public init(_ firings: [UpcomingFiring], text: AlarmText) {
    self.firings = firings
    self.text = text
  }

  /// The next `count` firings after `start` from the config, with the service's `marks`
  /// (`savedMarks`) when its state file could be read.
  public init(
    _ loaded: OfflineConfig, after start: Instant, count: Int, marks: ScheduleMarks,
    text: AlarmText
  ) {
    let daysOff = loaded.daysOff(at: start)
    firings = UpcomingFiring.list(
      loaded.config.alarms, zone: loaded.zone, daysOff: daysOff, after: start, count: count,
      marks: marks)
    self.text = text
    guard firings.isEmpty, count > 0 else { return }
    let schedule = Schedule(alarms: loaded.config.alarms, zone: loaded.zone, daysOff: daysOff)
    for alarm in schedule.alarms {
      let skipped = schedule.skipped(of: alarm.id, after: start, marks: marks)
      if !skipped.isEmpty { quiet.append((text.label(alarm), skipped)) }
    }
  }

  /// The `--json` array: `{id, label, at, time, sound, skipped}` per firing (an unset
  /// label is the default one, as the page and `list` show it).
  public var json: JSONValue {
    .array(
      firings.map { f in
        var shown = f
        shown.label = f.label ?? text.defaultLabel
        return shown.json
      })
  }

  /// The lines `next` prints, `until` counted from `start`; `zone` only dates the warning
  /// about an alarm skipped for more than a year.
  public func lines(from start: Instant, zone: TimeZoneRules) -> [String] {
    let yearOn = zone.local(at: start).date.adding(days: 366)
    guard !firings.isEmpty else {
      var out = [text.locale == .english ? "no alarm will ring" : "沒有即將響起的鬧鐘"]
      for (label, skipped) in quiet {
        out.append("\(label):")
        let cut = skipped.count == Schedule.skippedLimit
        for line in text.skippedLines(skipped, cut: cut) { out.append("  " + line) }
        out.append("  " + text.skippedUntil(label: label, until: yearOn))
      }
      return out
    }
    return firings.flatMap { f -> [String] in
      let label = f.label ?? text.defaultLabel
      guard let at = ISO8601Text.parse(f.at, in: zone), let local = ISO8601Text.localParts(f.at)
      else { return ["\(f.at) \(label)"] }
      var out = [text.firing(date: local.date, time: local.time, label: label, until: at - start)]
      out += text.skippedLines(f.skipped, cut: f.skipped.count == Schedule.skippedLimit).map {
        "  " + $0
      }
      if local.date > yearOn { out.append("  " + text.skippedUntil(label: label, until: yearOn)) }
      return out
    }
  }
}
