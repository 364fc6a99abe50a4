#if canImport(Glibc)
  import Glibc
#endif

/// Whole-file reads with a size cap, and the few path operations the service needs.
public enum FileSystem {
  /// The default cap for `readFile`: far above any real config or state file.
  public static let defaultReadLimit = 16 << 20

  /// Reads a regular file whole. Refuses files larger than `limit` bytes (EFBIG) before
  /// reading a byte of them, and anything that is not a regular file (e.g. a FIFO would block).
  public static func readFile(_ path: String, limit: Int = defaultReadLimit)
    throws(SystemError) -> [UInt8]
  {
    try readFileAndStatus(path, limit: limit).bytes
  }

  /// `readFile`, plus the status of the same open file (so the two belong together).
  public static func readFileAndStatus(_ path: String, limit: Int = defaultReadLimit)
    throws(SystemError) -> (bytes: [UInt8], status: stat)
  {
    let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
    defer { fd.close() }
    let st = try fd.status()
    if (st.st_mode & S_IFMT) == S_IFDIR {
      throw SystemError("read(\(path))", errno: EISDIR)
    }
    if (st.st_mode & S_IFMT) != S_IFREG {
      throw SystemError("read(\(path))", errno: EINVAL, detail: "not a regular file")
    }
    if st.st_size > limit {
      throw SystemError(
        "read(\(path))", errno: EFBIG,
        detail: "file is \(st.st_size) bytes, more than the limit of \(limit)")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(st.st_size))
    // Room for the whole file and a little growth, at most 64 KiB a read: a small file
    // is read without zeroing a large buffer first.
    var chunk = [UInt8](repeating: 0, count: min(64 << 10, Int(st.st_size) + 4096))
    while true {
      let raw = fd.rawValue
      let n = try retryingEINTR("read(\(path))") {
        chunk.withUnsafeMutableBytes { Glibc.read(raw, $0.baseAddress, $0.count) }
      }
      if n == 0 { break }
      // The file may grow while we read it: the cap holds for what we take, too.
      if bytes.count + n > limit {
        throw SystemError(
          "read(\(path))", errno: EFBIG,
          detail: "file grew past the limit of \(limit) bytes while being read")
      }
      bytes.append(contentsOf: chunk[..<n])
    }
    return (bytes, st)
  }

  /// Reads a file as UTF-8 text (invalid sequences become U+FFFD).
  public static func readText(_ path: String, limit: Int = defaultReadLimit)
    throws(SystemError) -> String
  {
    String(decoding: try readFile(path, limit: limit), as: UTF8.self)
  }

  /// lstat(2); nil when nothing exists at `path`.
  public static func status(_ path: String) throws(SystemError) -> stat? {
    var st = stat()
    do throws(SystemError) {
      try retryingEINTR("lstat(\(path))") { lstat(path, &st) }
    } catch  where error.errno == ENOENT {
      return nil
    }
    return st
  }

  /// True when something (of any kind) exists at `path`.
  public static func exists(_ path: String) -> Bool {
    (try? status(path)).flatMap { $0 } != nil
  }

  /// Creates a directory; with `intermediates`, also its missing parents (like `mkdir -p`).
  /// An existing directory is not an error.
  public static func createDirectory(
    _ path: String, mode: mode_t = 0o755, intermediates: Bool = false
  ) throws(SystemError) {
    if intermediates {
      let parent = directoryName(path)
      if parent != path && !exists(parent) {
        try createDirectory(parent, mode: mode, intermediates: true)
      }
    }
    do throws(SystemError) {
      try retryingEINTR("mkdir(\(path))") { mkdir(path, mode) }
    } catch  where error.errno == EEXIST {
      guard let st = try status(path), (st.st_mode & S_IFMT) == S_IFDIR else {
        throw SystemError("mkdir(\(path))", errno: ENOTDIR)
      }
    }
  }

  /// rename(2): atomically replaces `to`.
  public static func rename(_ from: String, to: String) throws(SystemError) {
    try retryingEINTR("rename(\(from), \(to))") { Glibc.rename(from, to) }
  }

  /// unlink(2); a missing file is not an error.
  public static func remove(_ path: String) throws(SystemError) {
    do throws(SystemError) {
      try retryingEINTR("unlink(\(path))") { unlink(path) }
    } catch  where error.errno == ENOENT {}
  }

  /// The directory part of a path: `a/b` -> `a`, `b` -> `.`, `/b` -> `/`.
  public static func directoryName(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    guard let slash = p.lastIndex(of: "/") else { return "." }
    let dir = p[..<slash]
    if dir.isEmpty { return "/" }
    var d = dir
    while d.count > 1 && d.hasSuffix("/") { d = d.dropLast() }
    return String(d)
  }

  /// The last component of a path: `a/b` -> `b`.
  public static func baseName(_ path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    guard let slash = p.lastIndex(of: "/") else { return String(p) }
    let name = p[p.index(after: slash)...]
    return name.isEmpty ? "/" : String(name)
  }
}

/// Writes files so that a reader (or a power cut) sees the old content or the new, never a part.
public enum AtomicFile {
  /// Writes `bytes` to a temp file in the same directory, fsyncs it, renames it over `path`
  /// and fsyncs the directory so the rename itself survives a power cut. On failure the temp
  /// file is removed and `path` is untouched.
  public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644)
    throws(SystemError)
  {
    let always: () throws(SystemError) -> Bool = { true }
    _ = try write(bytes, to: path, mode: mode, owner: nil, commitIf: always)
  }

  /// Like `write(_:to:mode:)`, and also gives the file `owner` (uid, gid) when allowed
  /// (a failing chown is ignored: only root may give files away), and calls `commitIf`
  /// right before the rename: when it returns false the temp file is removed, `path` is
  /// left as it is, and the result is false. Lets a config editor refuse to overwrite a
  /// file that someone changed while the edit was being prepared.
  public static func write(
    _ bytes: [UInt8], to path: String, mode: mode_t, owner: (uid: uid_t, gid: gid_t)?,
    commitIf: () throws(SystemError) -> Bool
  ) throws(SystemError) -> Bool {
    let dir = FileSystem.directoryName(path)
    let temp = "\(dir)/.\(FileSystem.baseName(path)).tmp-\(getpid())-\(nextSerial())"
    let fd = try FileDescriptor.open(temp, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
    do throws(SystemError) {
      defer { fd.close() }
      let raw = fd.rawValue
      if let owner { _ = fchown(raw, owner.uid, owner.gid) }
      // The process umask must not weaken or widen the requested mode (and fchown may
      // have cleared set-id bits).
      try retryingEINTR("fchmod(\(temp))") { fchmod(raw, mode) }
      try fd.writeAll(bytes)
      try fd.sync()
    } catch {
      try? FileSystem.remove(temp)
      throw error
    }
    do throws(SystemError) {
      guard try commitIf() else {
        try? FileSystem.remove(temp)
        return false
      }
      try FileSystem.rename(temp, to: path)
    } catch {
      try? FileSystem.remove(temp)
      throw error
    }
    let dirFD = try FileDescriptor.open(dir, O_RDONLY | O_DIRECTORY)
    defer { dirFD.close() }
    try dirFD.sync()
    return true
  }

  /// Writes a string's UTF-8 bytes atomically.
  public static func write(_ text: String, to path: String, mode: mode_t = 0o644)
    throws(SystemError)
  {
    try write(Array(text.utf8), to: path, mode: mode)
  }

  private static let serial = AtomicCounter()
  private static func nextSerial() -> Int { serial.next() }
}
