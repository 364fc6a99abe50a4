import AlarmCore
import AlarmFiles
import AlarmPlatform

/// The reminder list as a client edits it: read with its ETag, edited through
/// `ReminderEditor` (comments kept), written atomically only when the file is still the one
/// read (`ReminderFile.edit`). A list not yet written is created on the first edit, with
/// the config file's owner and mode.
public struct ReminderStore: Sendable {
  /// The list file.
  public var path: String
  /// The config it belongs to.
  public var configPath: String

  public init(configPath: String) {
    self.configPath = configPath
    path = ReminderList.path(forConfig: configPath)
  }

  /// The list, decoded, with the ETag of its bytes (a missing file's is that of no bytes).
  public func read() -> Result<(list: ReminderListResult, etag: String), ClientError> {
    ReminderFile.read(path).flatMap { bytes in
      ReminderFile.decode(bytes, path: path).map { ($0, ConfigStore.etag(of: bytes)) }
    }.mapError { ClientError(.io, $0.description) }
  }

  /// The usable list, or the CLI's words for why not.
  public func list() -> Result<(list: ReminderList, etag: String), ClientError> {
    read().flatMap { read in
      guard let list = read.list.list else { return .failure(invalid(read.list)) }
      return .success((list, read.etag))
    }
  }

  /// What a successful edit did.
  public struct Outcome: Sendable {
    public var result: ReminderEditResult
    /// The ETag of the file after the edit.
    public var etag: String
    /// The decoder's warnings, as `path:line:col: message`.
    public var warnings: [String]
  }

  /// Applies `edit`. With `ifMatch`, refuses (`.changed`) unless the file's ETag is that.
  /// Every refusal leaves the file byte-identical (or absent, when it was).
  public func apply(_ edit: ReminderEdit, ifMatch: String? = nil) -> Result<Outcome, ClientError> {
    let result = ReminderFile.edit(
      edit, path: path, configPath: configPath,
      expecting: { bytes in ifMatch.map { $0 == ConfigStore.etag(of: bytes) } ?? true })
    switch result {
    case .success(let r):
      return .success(
        Outcome(
          result: r, etag: ConfigStore.etag(of: Array(r.text.utf8)),
          warnings: r.warnings.map { $0.formatted(path: path) }))
    case .failure(.unreadable(let why)), .failure(.unwritable(let why)):
      return .failure(ClientError(.io, why))
    case .failure(.notExpected): return .failure(.changedSinceRead(path))
    case .failure(.changedDuringEdit): return .failure(.changedDuringEdit(path))
    case .failure(.refused(let error)): return .failure(explain(error))
    }
  }

  private func invalid(_ result: ReminderListResult) -> ClientError {
    ClientError(
      .remindersInvalid, "\(path) has errors; fix them first",
      details: result.formatted, detailsFirst: true)
  }

  /// The CLI's words for a refused edit.
  public func explain(_ error: ReminderEditError) -> ClientError {
    switch error {
    case .invalidList(let result):
      return invalid(result)
    case .unknownReminder(let id, let near, let ids):
      return .unknownID(
        .unknownReminder, path: path, what: "reminder", id: id, near: near, ids: ids,
        none: "the list is empty", lister: "alarmclock remind list")
    case .invalidResult(let result):
      return ClientError(
        .invalidValue, "\(path): the edit would make the list invalid; nothing was changed:",
        details: result.errors.map { "\($0.formatted(path: path)) (in the edited file)" })
    case .refused(let reason):
      return ClientError(.invalidValue, "\(path): \(reason); nothing was changed")
    }
  }
}
