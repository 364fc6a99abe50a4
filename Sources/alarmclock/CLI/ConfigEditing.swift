import AlarmCore
import AlarmPlatform
import AlarmService

/// Runs one config edit for the editing commands: reads the file, computes the new text
/// (pure, in `ConfigEditor`), and writes it atomically only if the file is unchanged.
struct ConfigEditing {
  var path: String
  var env: [String: String]

  init(configOption: String?) {
    env = processEnvironment()
    path = ConfigFile.path(configOption, environment: env)
  }

  /// Applies `edit`; on success prints nothing itself and hands the result to `report`.
  /// Every refusal is printed here; the file is then untouched. Returns the exit code.
  func run(_ edit: ConfigEdit, report: (ConfigEditResult, TimeZoneRules) -> Void) -> Int32 {
    let snapshot: FileSnapshot
    do {
      snapshot = try FileSnapshot.read(path, limit: ConfigFile.maxBytes)
    } catch {
      printError("\(path): cannot read: \(error)")
      return ExitCode.failure
    }
    guard let text = String(validating: snapshot.bytes, as: UTF8.self) else {
      printError("\(path): not UTF-8 text")
      return ExitCode.failure
    }
    let systemZone = ZoneLoader.system(environment: env)
    let today = systemZone.local(at: currentInstant()).date
    let outcome: ConfigEditResult
    switch ConfigEditor.apply(edit, to: text, path: path, now: today) {
    case .success(let r): outcome = r
    case .failure(let error):
      explain(error)
      return ExitCode.failure
    }
    var zone = systemZone
    if let name = outcome.config.settings.timezone {
      guard let rules = try? ZoneLoader.load(identifier: name) else {
        printError("\(path): unknown time zone '\(name)'; nothing was changed")
        return ExitCode.failure
      }
      zone = rules
    }
    for warning in outcome.result.warnings { printError(warning.formatted(path: path)) }
    // A calendar the edit names must be readable, or the service would refuse the file.
    let before = ConfigDecoder.decode(text, path: path).config.map {
      Set(SkipCalendarFiles.load($0, configPath: path).files.keys)
    }
    let calendars = SkipCalendarFiles.load(outcome.config, configPath: path)
    let unreadable = calendars.errors.filter { e in
      !(before ?? []).contains { e.contains("skip calendar '\($0)'") }
    }
    if outcome.changed, !unreadable.isEmpty {
      for e in unreadable { printError(e + " (in the edited file)") }
      printError("\(path): nothing was changed")
      return ExitCode.failure
    }
    if outcome.changed {
      do {
        guard try snapshot.replace(with: Array(outcome.text.utf8)) else {
          printError(
            "\(path) changed while this edit was being made (another editor saved it?); "
              + "nothing was written: run the command again")
          return ExitCode.failure
        }
      } catch {
        printError("\(path): cannot write: \(error); the file is unchanged")
        return ExitCode.failure
      }
    }
    for note in outcome.notes { printOut("note: \(note)") }
    report(outcome, zone)
    return ExitCode.ok
  }

  private func explain(_ error: ConfigEditError) {
    switch error {
    case .invalidConfig(let result):
      for m in result.formatted { printError(m) }
      printError("\(path) has errors; fix them first (see 'alarmclock check')")
    case .unknownAlarm(let id, let near, let ids):
      var message = "\(path): no alarm has the id '\(id)'"
      if !near.isEmpty {
        message += "; did you mean " + near.map { "'\($0)'" }.joined(separator: ", ") + "?"
      } else if ids.isEmpty {
        message += " (the file has no alarms)"
      } else if ids.count <= 12 {
        message += "; the ids are " + ids.map { "'\($0)'" }.joined(separator: ", ")
      } else {
        message += " ('alarmclock list' shows the ids)"
      }
      printError(message)
    case .invalidResult(let result, _):
      printError("\(path): the edit would make the config invalid; nothing was changed:")
      for d in result.errors { printError("  \(d.formatted(path: path)) (in the edited file)") }
    case .refused(let reason):
      printError("\(path): \(reason); nothing was changed")
    }
  }

  /// "next: Mon 06:45 Work (in 7 h 32 min)", or why it will not ring.
  static func nextLine(_ alarm: Alarm, zone: TimeZoneRules, env: [String: String]) -> String {
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
    let schedule = Schedule(alarms: [alarm], zone: zone, daysOff: daysOff)
    guard let firing = schedule.next(after: now, marks: ScheduleMarks()) else {
      return "it will not ring (its date is past)"
    }
    let local = zone.local(at: firing.at)
    return "next: "
      + text.firing(
        date: local.date, time: local.time, label: text.label(alarm), until: firing.at - now)
  }
}
