#if canImport(Glibc)
  import Glibc
#endif

/// A regular file's bytes and metadata as they were read, so that the file can later be
/// replaced only if nobody changed it in between (compare-and-swap on a file).
///
/// The config editor reads a snapshot, computes the new text from `bytes` alone, and calls
/// `replace(with:)`, which re-reads the file right before its atomic rename and refuses
/// when the content or its `FileIdentity` (inode, size, times) differ from the snapshot.
public struct FileSnapshot: Sendable {
  /// The path as given.
  public let path: String
  /// The file written to: `path` with symlinks resolved, so a symlinked config stays one.
  public let target: String
  public let bytes: [UInt8]
  /// Permission bits (including set-id and sticky bits).
  public let mode: mode_t
  public let owner: uid_t
  public let group: gid_t
  let identity: FileIdentity

  /// Reads `path` (a regular file of at most `limit` bytes) with its metadata.
  public static func read(_ path: String, limit: Int = FileSystem.defaultReadLimit)
    throws(SystemError) -> FileSnapshot
  {
    let target = try resolve(path)
    let (bytes, st) = try FileSystem.readFileAndStatus(target, limit: limit)
    return FileSnapshot(
      path: path, target: target, bytes: bytes, mode: st.st_mode & 0o7777, owner: st.st_uid,
      group: st.st_gid, identity: FileIdentity(st))
  }

  /// Whether the file still is exactly as read: same inode, size, modification time and bytes.
  public func isCurrent() throws(SystemError) -> Bool {
    let now: ([UInt8], stat)
    do throws(SystemError) {
      now = try FileSystem.readFileAndStatus(target, limit: max(bytes.count, 1) * 2 + 4096)
    } catch  where error.errno == ENOENT || error.errno == EFBIG {
      return false  // removed, or grown far beyond what was read
    }
    return FileIdentity(now.1) == identity && now.0 == bytes
  }

  /// Atomically replaces the file with `newBytes`, keeping its mode and (when allowed) its
  /// owner, unless it changed since the snapshot was read: then nothing is written and the
  /// result is false. The check runs right before the rename; an editor that saves in the
  /// few microseconds between check and rename is not caught (there is no file lock that
  /// every text editor honours).
  public func replace(with newBytes: [UInt8]) throws(SystemError) -> Bool {
    let commitIf: () throws(SystemError) -> Bool = { () throws(SystemError) in
      try self.isCurrent()
    }
    return try AtomicFile.write(
      newBytes, to: target, mode: mode, owner: (owner, group), commitIf: commitIf)
  }

  /// `path` with every symlink resolved (realpath(3)).
  private static func resolve(_ path: String) throws(SystemError) -> String {
    guard let resolved = realpath(path, nil) else { throw SystemError.current("realpath(\(path))") }
    defer { free(resolved) }
    return String(cString: resolved)
  }

}
