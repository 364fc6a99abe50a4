import AlarmClient
import AlarmCore
import AlarmFiles

/// The config file as one request sees it: its ETag and the usable config, or the CLI's
/// words for why it cannot be used (with the file's `path:line:col: message` errors).
struct WebConfigView {
  var etag: String
  var usable: Result<OfflineConfig, ClientError>

  /// Reads the file; decodes it unless `cached` was decoded from the same bytes.
  init(_ store: ConfigStore, cached: WebConfigView? = nil) {
    switch store.read() {
    case .failure(let e):
      etag = ""
      usable = .failure(e)
    case .success(let (bytes, etag)):
      self.etag = etag
      if let cached, cached.etag == etag {
        usable = cached.usable
        return
      }
      switch ConfigFile.decode(bytes, path: store.path, environment: store.environment, now: nil) {
      case .failure(let e): usable = .failure(ClientError(.io, e.description))
      case .success(let loaded): usable = OfflineConfig.from(loaded)
      }
    }
  }

  var loaded: OfflineConfig? { try? usable.get() }
  var config: Config? { loaded?.config }

  /// The errors to show on the page (empty when the config is usable).
  var problems: [String] {
    if case .failure(let e) = usable { return e.details.isEmpty ? [e.message] : e.details }
    return []
  }
}
