import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The config as the offline commands see it: read, decoded, validated, and
/// its time zone resolved, or the reasons it cannot be used.
public struct LoadedConfig {
  /// The file read.
  public var path: String
  /// The decoder's result: the config or its errors, and the warnings.
  public var result: ConfigResult
  /// Set when the config decoded and its zone loaded.
  public var config: Config?
  public var zone: TimeZoneRules
  /// Every diagnostic as `path:line:col: message` (and zone problems, calendar errors and
  /// warnings).
  public var messages: [String]
  /// The errors among `messages` (by their severity, not their text).
  public var errors: [String] = []
  /// The `skip_calendars` files, read and parsed (set when the config is usable).
  public var calendars = SkipCalendarFiles.Loaded()
  /// The calendars' warnings and alarms they keep quiet for a year, as in `messages`.
  public var calendarWarnings: [String] = []

  /// The calendars' days off around the local date of `now`.
  public func daysOff(at now: Instant) -> DaysOff {
    DaysOff(files: calendars.files, today: zone.local(at: now).date)
  }
}

/// Why the config file could not be read at all, in one line.
public struct ConfigFileError: Error, CustomStringConvertible {
  /// `path: why`.
  public var description: String
  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}

/// Reading the config file, for the service and the offline commands alike.
public enum ConfigFile {
  /// Files larger than this are refused unread: a config is a few KB.
  public static let maxBytes = 16 << 20

  /// `--config`, else `$ALARMCLOCK_CONFIG`, else the system path.
  public static func path(_ option: String?, environment: [String: String]) -> String {
    option ?? environment["ALARMCLOCK_CONFIG"] ?? "/etc/alarmclock/alarms.toml"
  }

  /// Reads the file, or a one-line reason it could not be read.
  public static func read(_ path: String) -> Result<[UInt8], ConfigFileError> {
    read(path, limit: maxBytes, tooLarge: "a config is at most 16 MiB").mapError {
      ConfigFileError("\(path): \($0)")
    }
  }

  /// Reads a file of at most `limit` bytes, or why not in a few words (`cannot open: ...`,
  /// `too large (TOOLARGE)`), without the path.
  static func read(_ path: String, limit: Int, tooLarge: String)
    -> Result<[UInt8], ConfigFileError>
  {
    do throws(SystemError) {
      return .success(try FileSystem.readFile(path, limit: limit))
    } catch {
      let why: String
      switch error.errno {
      case EFBIG: why = "too large (\(tooLarge))"
      case EISDIR: why = "a directory, not a file"
      case EINVAL: why = "not a regular file"
      default:
        let reason = SystemError.message(for: error.errno)
        why = error.call.hasPrefix("open") ? "cannot open: \(reason)" : "cannot read: \(reason)"
      }
      return .failure(ConfigFileError(why))
    }
  }

  /// Reads, decodes and validates the config and resolves its time zone.
  /// With `now`, a one-off dated before today (in the system zone) is warned about.
  public static func load(_ path: String, environment: [String: String], now: Instant?) -> Result<
    LoadedConfig, ConfigFileError
  > {
    switch read(path) {
    case .success(let bytes): return decode(bytes, path: path, environment: environment, now: now)
    case .failure(let reason): return .failure(reason)
    }
  }

  /// The `[settings]` of the file at `path`: those of the config when it is good, else
  /// what `ConfigDecoder.recoverSettings` reads from it (nil when it cannot be read), so
  /// that the state directory and the socket survive a typo.
  public static func settings(_ path: String, environment: [String: String], now: Instant?)
    -> Settings?
  {
    guard case .success(let bytes) = read(path) else { return nil }
    return settings(
      bytes, decode(bytes, path: path, environment: environment, now: now), path: path)
  }

  /// The `[settings]` of `bytes` read from `path`, given what `decode` made of them.
  public static func settings(
    _ bytes: [UInt8], _ decoded: Result<LoadedConfig, ConfigFileError>, path: String
  ) -> Settings {
    if case .success(let loaded) = decoded, let config = loaded.config { return config.settings }
    return ConfigDecoder.recoverSettings(String(decoding: bytes, as: UTF8.self), path: path)
  }

  /// Decodes and validates config bytes read from `path` and resolves the time zone.
  /// With `requireCalendars` false (the last-good fallback), an unreadable calendar is
  /// reported but leaves the config usable: ringing on a holiday beats not ringing.
  public static func decode(
    _ bytes: [UInt8], path: String, environment: [String: String], now: Instant?,
    requireCalendars: Bool = true
  ) -> Result<LoadedConfig, ConfigFileError> {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(ConfigFileError("\(path): not UTF-8 text"))
    }
    var zone = ZoneLoader.system(environment: environment)
    let result = ConfigDecoder.decode(text, path: path, now: now.map { zone.local(at: $0).date })
    var messages = result.formatted
    var config = result.config
    if let name = config?.settings.timezone {
      do {
        zone = try ZoneLoader.load(identifier: name)
      } catch {
        let at = config?.positions["settings.timezone"].map { "\($0.line):\($0.column)" } ?? "1:1"
        messages.append("\(path):\(at): unknown time zone '\(name)': \(error)")
        config = nil
      }
    }
    var loaded = LoadedConfig(
      path: path, result: result, config: config, zone: zone, messages: messages)
    loaded.errors =
      result.diagnostics.filter { $0.severity == .error }.map { $0.formatted(path: path) }
      + messages.dropFirst(result.diagnostics.count)
    if let config {
      let calendars = SkipCalendarFiles.load(config, configPath: path)
      loaded.calendars = calendars
      loaded.messages += calendars.errors
      loaded.errors += calendars.errors
      if calendars.errors.isEmpty || !requireCalendars {
        let when = now ?? currentInstant()
        loaded.calendarWarnings =
          calendars.warnings
          + SkipCalendarFiles.quietAlarms(
            config, zone: zone, daysOff: loaded.daysOff(at: when), now: when, configPath: path)
        loaded.messages += loaded.calendarWarnings
      } else {
        loaded.config = nil
      }
    }
    return .success(loaded)
  }
}

/// The process environment as a dictionary.
public func processEnvironment() -> [String: String] {
  var env: [String: String] = [:]
  var p = environ
  while let entry = p.pointee {
    let s = String(cString: entry)
    if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
    p += 1
  }
  return env
}

/// The current instant from CLOCK_REALTIME, to the millisecond (a snooze pressed at
/// 06:00:01.5 ends at 06:00:01.5 plus its length, not a whole second earlier).
public func currentInstant() -> Instant {
  let (s, atto) = Clock.realtime.now().components
  return Instant(seconds: s, milliseconds: atto / 1_000_000_000_000_000)
}

/// The running binary's path (for sounds installed beside it).
public func executablePath() -> String {
  var buf = [CChar](repeating: 0, count: 4096)
  let n = readlink("/proc/self/exe", &buf, buf.count - 1)
  guard n > 0 else { return CommandLine.arguments.first ?? "" }
  return String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
