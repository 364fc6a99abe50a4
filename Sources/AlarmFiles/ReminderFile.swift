import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Reading and editing the reminder list (`reminders.toml` beside the config) for the
/// service, the CLI and the web process alike. A list not yet written is an empty list.
public enum ReminderFile {
  /// Files larger than this are refused unread: 1,000 reminders with notes fit in far less.
  public static let maxBytes = 4 << 20

  /// The file's bytes; empty when it does not exist yet; or a one-line reason.
  public static func read(_ path: String) -> Result<[UInt8], ConfigFileError> {
    guard FileSystem.exists(path) else { return .success([]) }
    return ConfigFile.read(path, limit: maxBytes, tooLarge: "a reminder list is at most 4 MiB")
      .mapError { ConfigFileError("\(path): \($0)") }
  }

  /// The list in `bytes` read from `path`, decoded: its diagnostics when it has errors, or
  /// a one-line reason when the bytes are not UTF-8 text.
  public static func decode(_ bytes: [UInt8], path: String) -> Result<
    ReminderListResult, ConfigFileError
  > {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(ConfigFileError("\(path): not UTF-8 text"))
    }
    return .success(ReminderDecoder.decode(text, path: path))
  }

  /// The owner and permission bits the config at `configPath` has (0644 and no owner when
  /// it cannot be read): files written beside it for the first time take them, so whoever
  /// may edit the config may edit them.
  public static func ownership(ofConfig configPath: String) -> (
    owner: (uid: uid_t, gid: gid_t)?, mode: mode_t
  ) {
    guard let st = try? FileSystem.status(configPath) else { return (nil, 0o644) }
    return ((st.st_uid, st.st_gid), st.st_mode & 0o666)
  }

  /// Why an edit wrote nothing. Every refusal leaves the file byte-identical (or absent).
  public enum EditFailure: Error, Sendable {
    /// The file cannot be read, or is not UTF-8; a one-line reason with the path.
    case unreadable(String)
    /// `expecting` refused the bytes read (an ETag that no longer matches).
    case notExpected
    /// The editor refused the edit (unknown id, invalid list, invalid result).
    case refused(ReminderEditError)
    /// Someone saved the file between the read and the rename.
    case changedDuringEdit
    /// The new file could not be written; a one-line reason with the path.
    case unwritable(String)
  }

  /// Applies `edit` to the list at `path` and writes it atomically, only if the file is
  /// still the one read. `expecting` sees the bytes read first (the ETag check of a
  /// client). A list not yet written is created with `configPath`'s owner and mode, so
  /// whoever may edit the config may edit the list.
  public static func edit(
    _ edit: ReminderEdit, path: String, configPath: String,
    expecting: ([UInt8]) -> Bool = { _ in true }
  ) -> Result<ReminderEditResult, EditFailure> {
    let snapshot: FileSnapshot?
    do {
      snapshot = FileSystem.exists(path) ? try FileSnapshot.read(path, limit: maxBytes) : nil
    } catch {
      return .failure(.unreadable("\(path): cannot read: \(error)"))
    }
    let bytes = snapshot?.bytes ?? []
    guard expecting(bytes) else { return .failure(.notExpected) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(.unreadable("\(path): not UTF-8 text"))
    }
    let result: ReminderEditResult
    switch ReminderEditor.apply(edit, to: text, path: path) {
    case .success(let r): result = r
    case .failure(let error): return .failure(.refused(error))
    }
    guard result.changed else { return .success(result) }
    let newBytes = Array(result.text.utf8)
    do {
      let written: Bool
      if let snapshot {
        written = try snapshot.replace(with: newBytes)
      } else {
        written = try create(newBytes, path: path, configPath: configPath)
      }
      return written ? .success(result) : .failure(.changedDuringEdit)
    } catch {
      return .failure(.unwritable("\(path): cannot write: \(error); the list is unchanged"))
    }
  }

  /// Writes the first version of the list, unless someone created it meanwhile.
  private static func create(_ bytes: [UInt8], path: String, configPath: String)
    throws(SystemError) -> Bool
  {
    let (owner, mode) = ownership(ofConfig: configPath)
    let absent: () throws(SystemError) -> Bool = { () throws(SystemError) in
      !FileSystem.exists(path)
    }
    return try AtomicFile.write(bytes, to: path, mode: mode, owner: owner, commitIf: absent)
  }
}
