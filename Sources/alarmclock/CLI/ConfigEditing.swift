import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService

/// Runs one config edit for the editing commands through AlarmClient's `ConfigStore` (the
/// one the web process uses) and prints its warnings, notes and refusals.
struct ConfigEditing {
  var store: ConfigStore
  var env: [String: String] { store.environment }

  init(configOption: String?) {
    store = ConfigStore(configOption: configOption, environment: processEnvironment())
  }

  /// Applies `edit`; on success hands the result to `report`. Every refusal is printed
  /// here; the file is then untouched. Returns the exit code.
  func run(_ edit: ConfigEdit, report: (ConfigEditResult, TimeZoneRules) -> Void) -> Int32 {
    switch store.apply(edit) {
    case .failure(let error):
      for line in error.lines { printError(line) }
      return ExitCode.failure
    case .success(let outcome):
      for warning in outcome.warnings { printError(warning) }
      for note in outcome.result.notes { printOut("note: \(note)") }
      report(outcome.result, outcome.zone)
      return ExitCode.ok
    }
  }

  /// "next: Mon 06:45 Work (in 7 h 32 min)", or why it will not ring. The service's marks
  /// (a skip, a rung one-off) count, read from the state file of `config`'s state_dir.
  static func nextLine(
    _ alarm: Alarm, config: Config, zone: TimeZoneRules, env: [String: String]
  ) -> String {
    let text = AlarmText(DisplayLocale(environment: env))
    guard alarm.enabled else { return "disabled: it will not ring until enabled" }
    let now = currentInstant()
    var calendars: [String: ICalendarFile] = [:]
    for path in alarm.skipCalendars {
      if case .success(let bytes) = SkipCalendarFiles.read(path) {
        calendars[path] = ICalendarFile.parse(bytes)
      }
    }
    let daysOff = DaysOff(files: calendars, today: zone.local(at: now).date)
    let marks = AlarmListing.savedMarks(config, stateDir: nil)
    guard
      let next = UpcomingFiring.list(
        [alarm], zone: zone, daysOff: daysOff, after: now, count: 1, marks: marks
      ).first,
      let at = ISO8601Text.parse(next.at, in: zone), let local = ISO8601Text.localParts(next.at)
    else {
      return "it will not ring (its date is past)"
    }
    return "next: "
      + text.firing(date: local.date, time: local.time, label: text.label(alarm), until: at - now)
  }
}
