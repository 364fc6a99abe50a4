import AlarmCore
import AlarmService

/// A usable config for the offline commands, or nil after printing why not.
struct OfflineConfig {
  var config: Config
  var zone: TimeZoneRules
  /// The `skip_calendars` files, read and parsed.
  var calendars: [String: ICalendarFile] = [:]

  /// The calendars' days off around the local date of `instant`.
  func daysOff(at instant: Instant) -> DaysOff {
    DaysOff(files: calendars, today: zone.local(at: instant).date)
  }

  static func load(_ option: String?, env: [String: String]) -> OfflineConfig? {
    let path = ConfigFile.path(option, environment: env)
    switch ConfigFile.load(path, environment: env, now: nil) {
    case .failure(let reason):
      printError(reason.description)
      return nil
    case .success(let loaded):
      guard let config = loaded.config else {
        for m in loaded.messages { printError(m) }
        printError("\(path) has errors; run 'alarmclock check' after fixing them")
        return nil
      }
      return OfflineConfig(
        config: config, zone: loaded.zone, calendars: loaded.calendars.files)
    }
  }
}
