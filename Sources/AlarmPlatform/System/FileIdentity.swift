#if canImport(Glibc)
  import Glibc
#endif

/// The identity of a file's content as `stat` tells it: device, inode, size, modification
/// and change times. A file replaced by rename gets another inode; one written in place
/// another change time, unless the write falls in the same tick of the kernel's coarse
/// file clock. So, as git's index does for racy timestamps, an identity only vouches for
/// the content once its change time is a whole second older than the moment the content
/// was read (`settled`): any later write is then stamped later.
public struct FileIdentity: Hashable, Sendable {
  public let device: UInt64
  public let inode: UInt64
  public let size: Int64
  public let modified: timespec
  public let changed: timespec

  /// The identity of `path` now (through a symbolic link: the file read); nil when it
  /// cannot be looked at.
  public init?(_ path: String) {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    self.init(st)
  }

  /// The identity `st` describes.
  public init(_ st: stat) {
    device = UInt64(st.st_dev)
    inode = UInt64(st.st_ino)
    size = Int64(st.st_size)
    modified = st.st_mtim
    changed = st.st_ctim
  }

  /// Whether content read at `readAtSeconds` (the wall clock, seconds since the epoch) is
  /// the content of this identity for as long as the identity stays the same.
  public func settled(readAtSeconds: Int64) -> Bool { Int64(changed.tv_sec) + 1 < readAtSeconds }

  public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
    a.device == b.device && a.inode == b.inode && a.size == b.size
      && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
      && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
  }

  public func hash(into h: inout Hasher) {
    h.combine(device)
    h.combine(inode)
    h.combine(changed.tv_sec)
    h.combine(changed.tv_nsec)
  }
}
