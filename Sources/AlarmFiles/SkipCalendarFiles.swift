import AlarmCore
import AlarmPlatform

/// Reading the `skip_calendars` files a config names, for `check`, the offline commands
/// and the service alike.
public enum SkipCalendarFiles {
  /// Larger files are refused unread: a national holiday feed is tens of KB.
  public static let maxBytes = 4 << 20

  /// Reads one file, or a one-line reason (`cannot open: No such file or directory`).
  public static func read(_ path: String) -> Result<[UInt8], ConfigFileError> {
    ConfigFile.read(path, limit: maxBytes, tooLarge: "a calendar is at most 4 MiB")
  }

  /// What loading a config's calendars found.
  public struct Loaded {
    /// Each file read, by resolved path.
    public var files: [String: ICalendarFile] = [:]
    /// The files' bytes, to tell a real change from an editor's extra events.
    public var bytes: [String: [UInt8]] = [:]
    /// `config:line:col: skip calendar 'x': cannot open: ...`, one per unreadable file.
    public var errors: [String] = []
    /// Each file's warnings, `holidays.ics:12:1: warning: ...`.
    public var warnings: [String] = []

    /// No calendar read.
    public init() {}
  }

  /// Reads and parses every calendar `config` names; an unreadable one is an error at
  /// the `skip_calendars` entry that first names it.
  public static func load(_ config: Config, configPath: String) -> Loaded {
    var out = Loaded()
    let named = config.skipCalendarPositions.sorted { $0.value.offset < $1.value.offset }
    for (path, position) in named {
      switch read(path) {
      case .failure(let why):
        out.errors.append(
          "\(configPath):\(position.line):\(position.column): skip calendar '\(path)': \(why)")
      case .success(let bytes):
        let file = ICalendarFile.parse(bytes)
        out.files[path] = file
        out.bytes[path] = bytes
        out.warnings += file.warnings.map { $0.formatted(path: path) }
      }
    }
    return out
  }

  /// A warning for each enabled repeating alarm that will not ring in the next year
  /// because every occurrence is skipped (a calendar covering every day, a long range).
  public static func quietAlarms(
    _ config: Config, zone: TimeZoneRules, daysOff: DaysOff, now: Instant, configPath: String
  ) -> [String] {
    // Only repeating alarms with calendars or ranges can be skipped for a year; the
    // schedule holds just those (a schedule of thousands of alarms costs milliseconds).
    let candidates = config.alarms.filter {
      $0.enabled && !$0.isOneOff && (!$0.skipCalendars.isEmpty || !$0.skipRanges.isEmpty)
    }
    guard !candidates.isEmpty else { return [] }
    let schedule = Schedule(alarms: candidates, zone: zone, daysOff: daysOff)
    let today = zone.local(at: now).date
    let yearOn = today.adding(days: 366)
    let text = AlarmText(.english)
    var out: [String] = []
    for alarm in candidates {
      let next = schedule.next(of: alarm.id, after: now, marks: ScheduleMarks())
      guard next.map({ $0.date > yearOn }) ?? true else { continue }
      let at = config.alarmSources[alarm.id]?.start
      let prefix = at.map { "\(configPath):\($0.line):\($0.column): " } ?? "\(configPath): "
      out.append(prefix + text.skippedUntil(label: text.label(alarm), until: yearOn))
    }
    return out
  }
}
