#if canImport(Glibc)
  import Glibc
#endif
import CShim

/// An inotify instance: file system events as readable data.
public final class Inotify {
  /// One inotify record.
  public struct Event: Sendable, Equatable {
    /// The watch it belongs to.
    public var watch: Int32
    /// IN_* bits.
    public var mask: UInt32
    /// Pairs IN_MOVED_FROM with IN_MOVED_TO.
    public var cookie: UInt32
    /// The entry's name inside a watched directory; empty for the directory itself.
    public var name: String

    public init(watch: Int32, mask: UInt32, cookie: UInt32, name: String) {
      self.watch = watch
      self.mask = mask
      self.cookie = cookie
      self.name = name
    }
  }

  /// The descriptor to register with an `EventLoop` for `.readable`.
  public let descriptor: FileDescriptor

  /// A non-blocking, close-on-exec inotify instance.
  public init() throws(SystemError) {
    let fd = try retryingEINTR("inotify_init1") {
      inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
    }
    descriptor = FileDescriptor(owning: fd)
  }

  /// Watches `path` for the IN_* events in `mask`; returns the watch descriptor.
  @discardableResult
  public func addWatch(_ path: String, mask: UInt32) throws(SystemError) -> Int32 {
    let fd = descriptor.rawValue
    return try retryingEINTR("inotify_add_watch(\(path))") { inotify_add_watch(fd, path, mask) }
  }

  /// Stops a watch (the kernel then queues IN_IGNORED for it).
  public func removeWatch(_ watch: Int32) {
    _ = inotify_rm_watch(descriptor.rawValue, watch)
  }

  /// Reads every queued event; empty when none is queued.
  public func read() throws(SystemError) -> [Event] {
    var events: [Event] = []
    // Room for many records; one record needs at most 16 + NAME_MAX + 1 bytes.
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    let fd = descriptor.rawValue
    while true {
      let n: Int
      do throws(SystemError) {
        n = try retryingEINTR("read(inotify)") {
          buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        }
      } catch where error.isWouldBlock {
        return events
      }
      if n <= 0 { return events }
      buffer.withUnsafeBytes { events += Inotify.parse(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
    }
  }

  /// Parses packed `struct inotify_event` records: a 16-byte header (wd, mask, cookie, len)
  /// followed by `len` bytes of NUL-padded name. A truncated trailing record is dropped.
  public static func parse(_ bytes: UnsafeRawBufferPointer) -> [Event] {
    let header = 16
    var events: [Event] = []
    var offset = 0
    while bytes.count - offset >= header {
      let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
      let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
      let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
      let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
      let nameStart = offset + header
      guard length <= bytes.count - nameStart else { break }
      let nameBytes = bytes[nameStart..<(nameStart + length)]
      let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
      events.append(Event(watch: wd, mask: mask, cookie: cookie, name: name))
      offset = nameStart + length
    }
    return events
  }
}

/// Watches one file through its directory, so editors that save by writing a new file and
/// renaming it over the old one (vim, nano, sed -i) are seen, as are delete and re-create.
public final class FileWatch {
  /// A change to the watched file (or its directory).
  public enum Change: Sendable, Equatable {
    /// New content is complete: closed after writing, or another file renamed onto the name.
    case written
    /// The name was created (content may still be being written; `.written` follows).
    case created
    /// The name was deleted or renamed away.
    case removed
    /// The directory itself was deleted or moved: nothing more will be reported until
    /// `rewatch()` succeeds.
    case directoryGone
    /// The kernel queue overflowed: events were lost; re-read the file.
    case overflow
  }

  /// The watched file's path.
  public let path: String
  public let directory: String
  public let name: String
  private let inotify: Inotify
  private var watch: Int32?

  /// The IN_* events on the directory that matter for one file in it.
  static let mask: UInt32 =
    UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
    | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
    | UInt32(IN_ONLYDIR)

  /// Starts watching `path`'s directory (which must exist; the file need not).
  public init(path: String) throws(SystemError) {
    self.path = path
    directory = FileSystem.directoryName(path)
    name = FileSystem.baseName(path)
    inotify = try Inotify()
    watch = try inotify.addWatch(directory, mask: FileWatch.mask)
  }

  /// The descriptor to register with an `EventLoop` for `.readable`.
  public var descriptor: FileDescriptor { inotify.descriptor }

  /// True while the directory is watched.
  public var isWatching: Bool { watch != nil }

  /// Watches the directory again after `.directoryGone` (e.g. once it is re-created).
  public func rewatch() throws(SystemError) {
    if let watch { inotify.removeWatch(watch) }
    watch = nil
    watch = try inotify.addWatch(directory, mask: FileWatch.mask)
  }

  /// Reads queued events and returns the changes to the watched name, in order.
  public func read() throws(SystemError) -> [Change] {
    let before = watch
    let changes = FileWatch.changes(from: try inotify.read(), name: name, watch: &watch)
    // A moved directory keeps its kernel watch; drop it so its events stop.
    if let before, watch == nil { inotify.removeWatch(before) }
    return changes
  }

  /// Maps raw events to changes of `name`; clears `watch` when the directory is gone.
  static func changes(from events: [Inotify.Event], name: String, watch: inout Int32?)
    -> [Change]
  {
    var changes: [Change] = []
    for event in events {
      let m = event.mask
      if m & UInt32(IN_Q_OVERFLOW) != 0 {
        changes.append(.overflow)
        continue
      }
      guard event.watch == watch else { continue }
      if m & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)) != 0 {
        if watch != nil { changes.append(.directoryGone) }
        watch = nil
        continue
      }
      guard event.name == name else { continue }
      if m & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) != 0 {
        changes.append(.written)
      } else if m & UInt32(IN_CREATE) != 0 {
        changes.append(.created)
      } else if m & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
        changes.append(.removed)
      }
    }
    return changes
  }
}
