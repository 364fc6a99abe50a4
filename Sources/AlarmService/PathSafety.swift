import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A state directory or socket directory another user could write to: the service
/// refuses to start, since a planted `state.json` would be trusted (say, tomorrow's alarm
/// skipped) and a planted socket would take the clients' requests.
public struct UnsafePathError: Error, CustomStringConvertible, Sendable {
  /// The directory at fault.
  public let path: String
  /// What is wrong, where, and the fix.
  public let description: String
}

/// The start-up checks of the directories the service trusts.
enum PathSafety {
  /// Refuses `directory` (what it is for in `role`) when others may write to it, unless
  /// it has the sticky bit and belongs to us or root (as /tmp does: others cannot replace
  /// our files there). A directory that does not exist yet is fine: we create it. One that
  /// cannot be looked at (EACCES, ELOOP, ...) is refused: it is not known to be safe.
  static func checkDirectory(_ directory: String, role: String) throws(UnsafePathError) {
    var st = stat()
    guard stat(directory, &st) == 0 else {
      let code = errno
      if code == ENOENT { return }
      throw UnsafePathError(
        path: directory,
        description:
          "\(role) \(directory) cannot be checked (\(SystemError.message(for: code))): it is "
          + "not known that other users cannot plant files there")
    }
    let mode = st.st_mode & 0o7777
    guard mode & S_IWOTH != 0 else { return }
    let sticky = mode & S_ISVTX != 0
    if sticky && (st.st_uid == geteuid() || st.st_uid == 0) { return }
    let octal = String(mode, radix: 8)
    throw UnsafePathError(
      path: directory,
      description:
        "\(role) \(directory) is writable by every user (mode \(octal)"
        + "\(sticky ? ", sticky but owned by uid \(st.st_uid)" : "")): another user could plant "
        + "files there; fix it with 'chmod o-w \(directory)' or choose a directory of the "
        + "service's own")
  }

  /// The owner of the file at `path` when it is neither this process's user, nor root
  /// (only root could have written root's files), nor the owner of its directory (who
  /// could replace anything in it anyway: the service's user, when root runs the service
  /// by hand on the packaged service's state); nil otherwise, or when nothing is there.
  static func foreignOwner(of path: String) throws(SystemError) -> uid_t? {
    guard let st = try FileSystem.status(path) else { return nil }
    if st.st_uid == geteuid() || st.st_uid == 0 { return nil }
    let directory = try FileSystem.status(FileSystem.directoryName(path))
    return directory?.st_uid == st.st_uid ? nil : st.st_uid
  }
}
