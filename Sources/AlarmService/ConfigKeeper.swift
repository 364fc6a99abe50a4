import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The config in force, which is always the last good one, and what is wrong with the file
/// on disk when it is not.
///
/// Every good config is also copied to `last-good.toml` in the state directory, so that a
/// typo made at night followed by a power cut still leaves the morning's alarms in force:
/// at start-up a broken file falls back to that copy (loudly).
final class ConfigKeeper {
  /// One usable config.
  struct Snapshot {
    var config: Config
    var zone: TimeZoneRules
    /// Its `skip_calendars` files as read with it.
    var calendars = SkipCalendarFiles.Loaded()
    /// The file it was read from (the config, or the last-good copy).
    var source: String
  }

  /// What looking at the file again found.
  enum Outcome {
    /// Same bytes as last time: nothing to do (editors make several events per save).
    case unchanged
    /// A new good config is in force; its warnings, `path:line:col: message`.
    case applied(warnings: [String])
    /// The file is unusable; the config in force stays. Its errors.
    case rejected(errors: [String])
  }

  /// The file read and decoded once (at start-up the service needs its `[settings]`
  /// before the keeper exists: it is not decoded twice).
  struct Reading {
    var bytes: Result<[UInt8], ConfigFileError>
    /// nil when the bytes could not be read, or are empty.
    var decoded: Result<LoadedConfig, ConfigFileError>?

    init(path: String, environment: [String: String], now: Instant) {
      bytes = ConfigFile.read(path)
      if case .success(let b) = bytes, !b.isEmpty {
        decoded = ConfigFile.decode(b, path: path, environment: environment, now: now)
      }
    }

    /// The file's `[settings]`, read leniently when it does not decode; nil when unreadable.
    func settings(path: String) -> Settings? {
      guard case .success(let b) = bytes else { return nil }
      return ConfigFile.settings(b, decoded ?? .failure(ConfigFileError("empty")), path: path)
    }
  }

  let path: String
  let lastGoodPath: String
  let environment: [String: String]
  private let log: (LogLevel, String) -> Void
  private(set) var current: Snapshot
  /// Errors of the file on disk; empty when it is the config in force.
  private(set) var errors: [String] = []
  /// The bytes last looked at, good or bad.
  private var seen: [UInt8]?

  /// Loads `path`, falling back to the last good copy, then to no alarms at all; every
  /// problem goes to `log`.
  init(
    path: String, stateDir: String, environment: [String: String], now: Instant,
    reading: Reading? = nil, log: @escaping (LogLevel, String) -> Void
  ) {
    self.path = path
    lastGoodPath = stateDir + "/last-good.toml"
    self.environment = environment
    self.log = log
    current = ConfigKeeper.empty(path: path, environment: environment)
    let first = reading ?? Reading(path: path, environment: environment, now: now)
    switch apply(first, force: false) {
    case .applied(let warnings):
      for w in warnings { log(.warning, w) }
    case .rejected(let errors):
      for e in errors { log(.error, e) }
      if let saved = ConfigKeeper.decode(
        lastGoodPath, as: path, environment: environment, now: now)
      {
        current = saved
        log(
          .error,
          "\(path) is unusable: ringing the last good config, saved in \(lastGoodPath), "
            + "until the file is fixed")
      } else if FileSystem.exists(lastGoodPath),
        case .failure(let why) = ConfigFile.read(lastGoodPath)
      {
        // Kept as it is (root's, from a hand run?): only an edit of the config replaces it.
        log(
          .error,
          "\(path) is unusable and the last good copy is unreadable (\(why)): no alarm is set")
      } else {
        log(.error, "\(path) is unusable and no earlier good config is saved: no alarm is set")
      }
    case .unchanged: break
    }
  }

  /// Reads the file again and applies it if it is good. `force`: even if its bytes are
  /// the same (the system's time zone changed under it).
  func reload(now: Instant, force: Bool = false) -> Outcome {
    apply(Reading(path: path, environment: environment, now: now), force: force)
  }

  private func apply(_ reading: Reading, force: Bool) -> Outcome {
    let bytes: [UInt8]
    switch reading.bytes {
    case .failure(let reason):
      seen = nil
      errors = [reason.description]
      return .rejected(errors: errors)
    case .success(let b): bytes = b
    }
    if bytes == seen && !force { return .unchanged }
    seen = bytes
    // An empty file is what a save interrupted by a full disk or a power cut leaves; taking
    // it as "no alarms" would silence every morning. A config meant to be empty has a comment.
    if bytes.isEmpty {
      errors = ["\(path): the file is empty; the last good config stays in force"]
      return .rejected(errors: errors)
    }
    let loaded: LoadedConfig
    switch reading.decoded ?? .failure(ConfigFileError("\(path): cannot be decoded")) {
    case .failure(let reason):
      errors = [reason.description]
      return .rejected(errors: errors)
    case .success(let l): loaded = l
    }
    guard let config = loaded.config else {
      errors = loaded.errors.isEmpty ? loaded.messages : loaded.errors
      return .rejected(errors: errors)
    }
    errors = []
    current = Snapshot(
      config: config, zone: loaded.zone, calendars: loaded.calendars, source: path)
    // Without the copy the fallback after a restart is lost: say so, the config still applies.
    do {
      try StateFiles.write(bytes, to: lastGoodPath, mode: 0o640)
    } catch {
      log(
        .error,
        "cannot save the last good config to \(lastGoodPath) (\(error)): a restart on a broken "
          + "config would ring no alarm")
    }
    return .applied(
      warnings: loaded.result.warnings.map { $0.formatted(path: path) } + loaded.calendarWarnings)
  }

  /// `ConfigStatus` for `status`.
  var status: ConfigStatus {
    ConfigStatus(path: path, ok: errors.isEmpty, errors: errors)
  }

  /// The saved copy at `path`, decoded as if it were `configPath`: its relative paths
  /// (`skip_calendars`, `sound_dirs`, ...) are the config directory's, not the state's.
  private static func decode(
    _ path: String, as configPath: String, environment: [String: String], now: Instant
  ) -> Snapshot? {
    guard case .success(let bytes) = ConfigFile.read(path),
      case .success(let loaded) = ConfigFile.decode(
        bytes, path: configPath, environment: environment, now: now, requireCalendars: false),
      let config = loaded.config
    else { return nil }
    return Snapshot(
      config: config, zone: loaded.zone, calendars: loaded.calendars, source: path)
  }

  /// No alarms, default settings: what runs when nothing usable exists yet.
  private static func empty(path: String, environment: [String: String]) -> Snapshot {
    let zone = ZoneLoader.system(environment: environment)
    // The empty document is valid by construction; the force is checked by the tests.
    let config = ConfigDecoder.decode("", path: path, now: nil).config!
    return Snapshot(config: config, zone: zone, source: path)
  }
}
