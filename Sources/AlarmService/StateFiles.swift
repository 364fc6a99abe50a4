import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Who owns the files the service writes in its state directory (`state.json`, which
/// holds the skips, the done one-offs and the sound-folder turns, and `last-good.toml`).
///
/// Run as root by hand (`sudo alarmclock run`), the service would leave root's files in
/// the service user's directory, which that user then cannot read: the packaged service
/// would lose its memory. As root, a new file takes the owner of its directory instead.
enum StateFiles {
  /// The owner (uid, gid) a new file in `directory` gets: the directory's, when this
  /// process runs as root and the directory is another user's; nil otherwise (the file is
  /// ours, as created).
  static func owner(forFilesIn directory: String) -> (uid: uid_t, gid: gid_t)? {
    guard geteuid() == 0, let st = try? FileSystem.status(directory),
      st.st_mode & S_IFMT == S_IFDIR, st.st_uid != 0
    else { return nil }
    return (st.st_uid, st.st_gid)
  }

  /// Writes `bytes` atomically to `path` (mode `mode`), owned like its directory when
  /// run as root (`owner(forFilesIn:)`).
  static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(SystemError) {
    let owner = owner(forFilesIn: FileSystem.directoryName(path))
    let always: () throws(SystemError) -> Bool = { true }
    _ = try AtomicFile.write(bytes, to: path, mode: mode, owner: owner, commitIf: always)
  }

  /// True when `error` says the file is there but this user may not read it: it is not
  /// corrupt and must be kept as it is.
  static func isUnreadable(_ error: SystemError) -> Bool {
    error.errno == EACCES || error.errno == EPERM
  }

  /// What to tell the person who can fix an unreadable file at `path`.
  static func unreadableHint(_ path: String) -> String {
    let owner = (try? FileSystem.status(path)).flatMap { $0 }.map { "uid \($0.st_uid)" }
    return "it is kept as it is (owned by \(owner ?? "another user"), and this service runs "
      + "as uid \(geteuid())); a run of 'sudo alarmclock run' leaves such files. Fix it "
      + "with 'chown' to the service's user (the packaged service's boot does: tmpfiles.d), "
      + "then restart the service"
  }

  /// The start-up line of a run as root (a hand run of `sudo alarmclock run`): that it runs
  /// as root, and where it writes, with whose ownership.
  static func rootNotice(stateDir: String, socket: String) -> String {
    let owner = owner(forFilesIn: stateDir).map { "uid \($0.uid), like the directory" }
    return "running as root: writing \(stateDir)/state.json and last-good.toml (owned by "
      + "\(owner ?? "root")) and the socket \(socket); the packaged service runs as its own "
      + "user: stop it first ('systemctl stop alarmclock'), and prefer 'systemctl start alarmclock'"
  }
}
