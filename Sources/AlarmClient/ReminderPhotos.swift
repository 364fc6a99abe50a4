import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A reminder's photo, uploaded from the page or the API: stored in `reminder-photos/`
/// beside the list under a name made from the reminder's id and the bytes' digest, then
/// named in the list. A photo replaced or removed, or whose reminder goes, is deleted.
extension ReminderStore {
  /// The directory photos are stored in.
  public var photoDirectory: String { ReminderList.photoDirectory(forList: path) }

  /// Makes `bytes` (a JPEG, PNG, GIF or WebP image of at most `ReminderPhoto.maxBytes`)
  /// the photo of `id`. The file is written (atomically) before the list names it, and a
  /// refused list edit removes it again, so the list never names a missing photo.
  public func setPhoto(id: String, bytes: [UInt8], ifMatch: String? = nil)
    -> Result<Outcome, ClientError>
  {
    guard bytes.count <= ReminderPhoto.maxBytes else {
      return .failure(
        ClientError(
          .invalidValue, "the photo is \(bytes.count) bytes; at most \(ReminderPhoto.maxBytes)"))
    }
    guard let type = ReminderPhoto.mediaType(of: bytes) else {
      return .failure(ClientError(.invalidValue, "the photo is not a JPEG, PNG, GIF or WebP image"))
    }
    let old: String?
    switch photoName(id) {
    case .failure(let e): return .failure(e)
    case .success(let name): old = name
    }
    // A new name for new bytes: the old file stays whole until the list no longer names it.
    let ext = type == "image/jpeg" ? "jpg" : String(type.dropFirst("image/".count))
    let name = "\(id)-\(SHA256.hex(SHA256.hash(bytes).prefix(6))).\(ext)"
    let file = photoDirectory + "/" + name
    do {
      try makeDirectory()
      // The config's owner, and its read bits with the owner's read and write.
      let (owner, mode) = ReminderFile.ownership(ofConfig: configPath)
      let always: () throws(SystemError) -> Bool = { () throws(SystemError) in true }
      _ = try AtomicFile.write(bytes, to: file, mode: mode | 0o600, owner: owner, commitIf: always)
    } catch {
      return .failure(ClientError(.io, "\(file): cannot write: \(error)"))
    }
    let changes = ReminderChanges(values: [.photo: .string(name)])
    let outcome = apply(.edit(id: id, changes), ifMatch: ifMatch)
    switch outcome {
    case .failure:
      if name != old { try? FileSystem.remove(file) }
    case .success:
      if let old, old != name { try? FileSystem.remove(photoDirectory + "/" + old) }
    }
    return outcome
  }

  /// Takes `id`'s photo off the list and deletes its file.
  public func removePhoto(id: String, ifMatch: String? = nil) -> Result<Outcome, ClientError> {
    photoName(id).flatMap { old in
      let outcome = apply(.edit(id: id, ReminderChanges(unset: [.photo])), ifMatch: ifMatch)
      if case .success = outcome, let old { try? FileSystem.remove(photoDirectory + "/" + old) }
      return outcome
    }
  }

  /// Removes the reminder `id`, and its photo's file.
  public func remove(id: String, ifMatch: String? = nil) -> Result<Outcome, ClientError> {
    photoName(id).flatMap { old in
      let outcome = apply(.remove(id: id), ifMatch: ifMatch)
      if case .success = outcome, let old { try? FileSystem.remove(photoDirectory + "/" + old) }
      return outcome
    }
  }

  /// The photo file `id` names now (nil: none), or why the list cannot say.
  private func photoName(_ id: String) -> Result<String?, ClientError> {
    list().flatMap { read in
      guard let r = read.list.reminder(id: id) else {
        return .failure(explain(ReminderEditor.unknown(id, read.list)))
      }
      return .success(r.photo)
    }
  }

  private func makeDirectory() throws(SystemError) {
    guard !FileSystem.exists(photoDirectory) else { return }
    try FileSystem.createDirectory(photoDirectory, mode: 0o755)
    if let ids = ReminderFile.ownership(ofConfig: configPath).owner {
      _ = chown(photoDirectory, ids.uid, ids.gid)
    }
  }
}
