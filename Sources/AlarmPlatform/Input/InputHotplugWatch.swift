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
  private let inotify: Inotify
  /// The inotify fd (non-blocking, owned): register it with the event loop.
  public var descriptor: FileDescriptor { inotify.descriptor }
  public var fd: Int32 { descriptor.rawValue }
  private var watches: [Int32: String] = [:]
  private var wanted: Set<String>

  private static let mask = UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)

  public init(directories: [String]) throws(InputError) {
    do throws(SystemError) {
      inotify = try Inotify()
    } catch {
      throw .system(call: "inotify_init1", device: "input", errno: error.errno)
    }
    wanted = Set(directories)
    for dir in directories.sorted() { addWatch(dir) }
  }

  /// The directories watched now (a missing one is replaced by its parent).
  public var watchedDirectories: [String] { watches.values.sorted() }

  private func addWatch(_ dir: String) {
    do throws(SystemError) {
      watches[try inotify.addWatch(dir, mask: InputHotplugWatch.mask)] = dir
    } catch  where error.errno == ENOENT {
      let parent = InputDeviceSelector.parent(of: dir)
      if parent != dir {
        wanted.insert(dir)
        addWatch(parent)
      }
    } catch {
      // Unwatchable (permissions): devices there are found when the service restarts.
    }
  }

  /// Drains the inotify fd: the nodes that appeared or went away.
  public func read() -> [InputDirectoryChange] {
    // An error other than "drained" leaves the events read so far as the answer.
    let events = (try? inotify.read()) ?? []
    var out: [InputDirectoryChange] = []
    for event in events {
      guard let dir = watches[event.watch] else { continue }
      if event.mask & UInt32(IN_IGNORED) != 0 {
        watches[event.watch] = nil  // the directory itself went away
        if wanted.contains(dir) { addWatch(dir) }
        continue
      }
      guard !event.name.isEmpty else { continue }
      let path = dir + "/" + event.name
      if event.mask & UInt32(IN_ISDIR) != 0 {
        if wanted.contains(path), event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
          addWatch(path)
          // Entries created before the watch existed would be missed.
          for entry in InputDeviceSelector.expand(path + "/*") { out.append(.appeared(entry)) }
        }
        continue
      }
      if event.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
        out.append(.disappeared(path))
      } else {
        out.append(.appeared(path))
      }
    }
    return out
  }
}
