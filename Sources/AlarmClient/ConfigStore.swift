import AlarmCore
import AlarmFiles
import AlarmPlatform

/// The config file as a client edits it: read with its ETag, edited through `ConfigEditor`
/// (comments kept), written atomically only when the file is still the one read.
public struct ConfigStore: Sendable {
  /// The config file.
  public var path: String
  /// The environment (time zone, locale) the edits are made in.
  public var environment: [String: String]

  public init(path: String, environment: [String: String]) {
    self.path = path
    self.environment = environment
  }

  /// The entity tag of config bytes: a quoted prefix of their SHA-256, so any change to
  /// the file (comments too) changes it.
  public static func etag(of bytes: some Collection<UInt8>) -> String {
    "\"" + SHA256.hex(SHA256.hash(bytes).prefix(16)) + "\""
  }

  /// The file's bytes and ETag, or why it cannot be read.
  public func read() -> Result<(bytes: [UInt8], etag: String), ClientError> {
    switch ConfigFile.read(path) {
    case .success(let bytes): return .success((bytes, Self.etag(of: bytes)))
    case .failure(let e): return .failure(ClientError(.io, e.description))
    }
  }

  /// What a successful edit did, and the time zone its config uses.
  public struct Outcome: Sendable {
    public var result: ConfigEditResult
    public var zone: TimeZoneRules
    /// The ETag of the file after the edit.
    public var etag: String
    /// The decoder's warnings, as `path:line:col: message`.
    public var warnings: [String]
  }

  /// The config file named by `--config`, `$ALARMCLOCK_CONFIG` or the system default.
  public init(configOption: String?, environment: [String: String]) {
    self.init(
      path: ConfigFile.path(configOption, environment: environment), environment: environment)
  }

  /// Applies `edit`. With `ifMatch`, refuses (`.changed`) unless the file's ETag is that.
  /// Every refusal leaves the file byte-identical.
  public func apply(_ edit: ConfigEdit, ifMatch: String? = nil) -> Result<Outcome, ClientError> {
    let snapshot: FileSnapshot
    do {
      snapshot = try FileSnapshot.read(path, limit: ConfigFile.maxBytes)
    } catch {
      return .failure(ClientError(.io, "\(path): cannot read: \(error)"))
    }
    if let ifMatch, ifMatch != Self.etag(of: snapshot.bytes) {
      return .failure(.changedSinceRead(path))
    }
    guard let text = String(validating: snapshot.bytes, as: UTF8.self) else {
      return .failure(ClientError(.io, "\(path): not UTF-8 text"))
    }
    let systemZone = ZoneLoader.system(environment: environment)
    let today = systemZone.local(at: currentInstant()).date
    let outcome: ConfigEditResult
    switch ConfigEditor.apply(edit, to: text, path: path, now: today) {
    case .success(let r): outcome = r
    case .failure(let error): return .failure(explain(error))
    }
    var zone = systemZone
    if let name = outcome.config.settings.timezone {
      guard let rules = try? ZoneLoader.load(identifier: name) else {
        return .failure(
          ClientError(.invalidValue, "\(path): unknown time zone '\(name)'; nothing was changed"))
      }
      zone = rules
    }
    // A calendar the edit names must be readable, or the service would refuse the file.
    let before = ConfigDecoder.decode(text, path: path).config.map {
      Set(SkipCalendarFiles.load($0, configPath: path).files.keys)
    }
    let calendars = SkipCalendarFiles.load(outcome.config, configPath: path)
    let unreadable = calendars.errors.filter { e in
      !(before ?? []).contains { e.contains("skip calendar '\($0)'") }
    }
    if outcome.changed, !unreadable.isEmpty {
      return .failure(
        ClientError(
          .invalidValue, "\(path): nothing was changed",
          details: unreadable.map { $0 + " (in the edited file)" }, detailsFirst: true))
    }
    let newBytes = Array(outcome.text.utf8)
    if outcome.changed {
      do {
        guard try snapshot.replace(with: newBytes) else {
          return .failure(.changedDuringEdit(path))
        }
      } catch {
        return .failure(ClientError(.io, "\(path): cannot write: \(error); the file is unchanged"))
      }
    }
    return .success(
      Outcome(
        result: outcome, zone: zone, etag: Self.etag(of: newBytes),
        warnings: outcome.result.warnings.map { $0.formatted(path: path) }))
  }

  /// The CLI's words for a refused edit.
  public func explain(_ error: ConfigEditError) -> ClientError {
    switch error {
    case .invalidConfig(let result):
      return ClientError(
        .configInvalid, "\(path) has errors; fix them first (see 'alarmclock check')",
        details: result.formatted, detailsFirst: true)
    case .unknownAlarm(let id, let near, let ids):
      return .unknownID(
        .unknownAlarm, path: path, what: "alarm", id: id, near: near, ids: ids,
        none: "the file has no alarms", lister: "alarmclock list")
    case .invalidResult(let result, _):
      return ClientError(
        .invalidValue, "\(path): the edit would make the config invalid; nothing was changed:",
        details: result.errors.map { "\($0.formatted(path: path)) (in the edited file)" })
    case .refused(let reason):
      return ClientError(.invalidValue, "\(path): \(reason); nothing was changed")
    }
  }
}
