import CShim
import Glibc

/// A change in a watched input directory.
public enum InputDirectoryChange: Sendable, Hashable {
  /// A node appeared (created, or moved in) or its permissions changed (udev
  /// sets the group after creating the node): try to open it again.
  case appeared(String)
  case disappeared(String)
}

/// Watches device directories (/dev/input, /dev/input/by-id) with inotify,
/// so devices that appear later are opened without polling. A directory that
/// does not exist yet (by-id appears with the first device) is watched for
/// through its parent.
public final class InputHotplugWatch {
  /// The inotify fd (non-blocking, owned): register it with the event loop.
  public let descriptor: FileDescriptor
  public var fd: Int32 { descriptor.rawValue }
  private var watches: [Int32: String] = [:]
  private var wanted: Set<String>

  private static let mask = UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)

  public init(directories: [String]) throws(InputError) {
    do throws(SystemError) {
      let fd = try retryingEINTR("inotify_init1") {
        inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      }
      descriptor = FileDescriptor(owning: fd)
    } catch {
      throw .system(call: "inotify_init1", device: "input", errno: error.errno)
    }
    wanted = Set(directories)
    for dir in directories.sorted() { addWatch(dir) }
  }

  /// The directories watched now (a missing one is replaced by its parent).
  public var watchedDirectories: [String] { watches.values.sorted() }

  private func addWatch(_ dir: String) {
    let wd = inotify_add_watch(fd, dir, InputHotplugWatch.mask)
    if wd >= 0 {
      watches[wd] = dir
    } else if errno == ENOENT {
      let parent = InputDeviceSelector.parent(of: dir)
      if parent != dir {
        wanted.insert(dir)
        addWatch(parent)
      }
    }
  }

  /// Drains the inotify fd: the nodes that appeared or went away.
  public func read() -> [InputDirectoryChange] {
    var out: [InputDirectoryChange] = []
    while true {
      // EAGAIN (drained) or any error: what was read so far is the answer.
      guard let chunk = try? descriptor.readSome(maxCount: 4096), !chunk.isEmpty else {
        return out
      }
      out += decode(chunk[...])
    }
  }

  private func decode(_ bytes: ArraySlice<UInt8>) -> [InputDirectoryChange] {
    let header = MemoryLayout<inotify_event>.size
    var out: [InputDirectoryChange] = []
    var i = bytes.startIndex
    while bytes.endIndex - i >= header {
      let (wd, mask, len) = bytes.withUnsafeBytes { raw in
        let o = i - bytes.startIndex
        return (
          raw.loadUnaligned(fromByteOffset: o, as: Int32.self),
          raw.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self),
          Int(raw.loadUnaligned(fromByteOffset: o + 12, as: UInt32.self))
        )
      }
      let nameBytes = bytes[(i + header)..<min(bytes.endIndex, i + header + len)]
      let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
      i += header + len
      guard let dir = watches[wd] else { continue }
      if mask & UInt32(IN_IGNORED) != 0 {
        watches[wd] = nil  // the directory itself went away
        if wanted.contains(dir) { addWatch(dir) }
        continue
      }
      guard !name.isEmpty else { continue }
      let path = dir + "/" + name
      if mask & UInt32(IN_ISDIR) != 0 {
        if wanted.contains(path), mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
          addWatch(path)
          // Entries created before the watch existed would be missed.
          for entry in InputDeviceSelector.expand(path + "/*") { out.append(.appeared(entry)) }
        }
        continue
      }
      if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
        out.append(.disappeared(path))
      } else {
        out.append(.appeared(path))
      }
    }
    return out
  }
}
