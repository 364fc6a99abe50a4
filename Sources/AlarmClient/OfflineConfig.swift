import AlarmCore
import AlarmFiles

/// A usable config for the offline commands and the web process: decoded, its time zone
/// and `skip_calendars` files loaded.
public struct OfflineConfig {
  public var path: String
  public var config: Config
  public var zone: TimeZoneRules
  /// The `skip_calendars` files, read and parsed.
  public var calendars: [String: ICalendarFile] = [:]

  /// The calendars' days off around the local date of `instant`.
  public func daysOff(at instant: Instant) -> DaysOff {
    DaysOff(files: calendars, today: zone.local(at: instant).date)
  }

  /// Reads the config at `path`, or the CLI's words for why it cannot be used.
  public static func load(_ path: String, environment: [String: String]) -> Result<
    OfflineConfig, ClientError
  > {
    switch ConfigFile.load(path, environment: environment, now: nil) {
    case .failure(let reason):
      return .failure(ClientError(.io, reason.description))
    case .success(let loaded):
      return from(loaded)
    }
  }

  /// The usable config of a decoded file, or its errors.
  public static func from(_ loaded: LoadedConfig) -> Result<OfflineConfig, ClientError> {
    guard let config = loaded.config else {
      return .failure(
        ClientError(
          .configInvalid, "\(loaded.path) has errors; run 'alarmclock check' after fixing them",
          details: loaded.messages, detailsFirst: true))
    }
    return .success(
      OfflineConfig(
        path: loaded.path, config: config, zone: loaded.zone, calendars: loaded.calendars.files))
  }
}
