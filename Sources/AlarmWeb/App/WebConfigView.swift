import AlarmClient
import AlarmCore
import AlarmService

/// The config file as one request sees it: its ETag and, when it is valid, the decoded
/// config with its time zone; else the errors `check` prints.
struct WebConfigView {
  var etag: String
  var loaded: LoadedConfig?
  var config: Config? { loaded?.config }
  var zone: TimeZoneRules? { loaded?.zone }
  /// `path:line:col: message` lines when the file cannot be used.
  var problems: [String]

  init(_ store: ConfigStore) {
    switch store.read() {
    case .failure(let e):
      etag = ""
      problems = [e.message]
    case .success(let (bytes, etag)):
      self.etag = etag
      switch ConfigFile.decode(bytes, path: store.path, environment: store.environment, now: nil) {
      case .failure(let e): problems = [e.description]
      case .success(let l):
        loaded = l
        problems = l.config == nil ? l.messages : []
      }
    }
  }

  /// The reason the config cannot be used, as the CLI prints it.
  func invalid(_ path: String) -> ClientError {
    if problems.count == 1, loaded == nil { return ClientError(.io, problems[0]) }
    return ClientError(
      .configInvalid, "\(path) has errors; run 'alarmclock check' after fixing them",
      details: problems)
  }
}
