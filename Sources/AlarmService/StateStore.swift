import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The state file in the state directory: read once at start-up, written atomically after
/// every change. A file that cannot be decoded, or that another user owns (it could have
/// been planted), is moved aside (never deleted) and the service starts clean. A file this
/// user may not read (root's, from a hand run as root) is not corrupt: it is kept, the
/// service starts clean and never writes over it (every save fails, `status` says so)
/// until the ownership is fixed and the service restarted. Written as root, the file
/// keeps the directory's owner (`StateFiles`). When and how often it is written is
/// `StateSaver`'s business.
struct StateStore {
  let directory: String
  var path: String { directory + "/state.json" }
  /// The last bytes written successfully: an unchanged state is not rewritten.
  private var written: [UInt8]?
  /// The last state written, and when (monotonic), for `save(_:force:)`.
  private var writtenState: ServiceState?
  private var writtenAt: Duration?
  /// Set when the file on disk could not be read: it must not be overwritten.
  private(set) var keptUnreadable: SystemError?
  /// A state that differs only in when it was last brought up to date is written at most
  /// this often: a script polling `status` every second must not wear out an SD card.
  static let checkpointInterval: Duration = .seconds(3600)

  init(directory: String) { self.directory = directory }

  /// The saved state, or a fresh one; `log` hears why a file was not used.
  mutating func load(log: (LogLevel, String) -> Void) -> ServiceState {
    let bytes: [UInt8]
    do throws(SystemError) {
      if let owner = try PathSafety.foreignOwner(of: path) {
        moveAside(
          because: "owned by uid \(owner), not by this service's user (uid \(geteuid()));"
            + " another user could have planted it", log: log)
        return ServiceState()
      }
      bytes = try FileSystem.readFile(path, limit: StateCodec.maxFileSize)
    } catch  where error.errno == ENOENT {
      log(.info, "no state file at \(path): starting clean")
      return ServiceState()
    } catch  where StateFiles.isUnreadable(error) {
      keptUnreadable = error
      log(
        .error,
        "\(error); \(StateFiles.unreadableHint(path)). Until then this run starts clean "
          + "and saves nothing: done one-offs, skips and sound-folder turns are not known")
      return ServiceState()
    } catch {
      moveAside(because: error.description, log: log)
      return ServiceState()
    }
    do throws(StateDecodeError) {
      let state = try StateCodec.decode(bytes)
      written = bytes
      writtenState = state
      writtenAt = Clock.monotonic.now()
      return state
    } catch {
      moveAside(because: error.description, log: log)
      return ServiceState()
    }
  }

  /// Writes `state` if it differs from what is on disk. Only the catch-up marks
  /// (`lastChecked`, `highWater`) having moved is not enough, unless `force` or the last
  /// write is older than `checkpointInterval`: nothing is lost by an older mark (what rang
  /// is in the history, which is written at once), a restart only looks further back.
  /// Returns whether the file was written; throws when the write failed.
  @discardableResult
  mutating func save(_ state: ServiceState, force: Bool = false) throws(SystemError) -> Bool {
    if let kept = keptUnreadable {
      throw SystemError(
        "rename(\(path))", errno: kept.errno,
        detail: "not written over: the file there could not be read at start-up")
    }
    let now = Clock.monotonic.now()
    if !force, let old = writtenState, let at = writtenAt,
      now - at < StateStore.checkpointInterval
    {
      var same = state
      same.lastChecked = old.lastChecked
      same.highWater = old.highWater
      if same == old { return false }
    }
    let bytes = StateCodec.encode(state)
    if bytes == written { return false }
    try StateFiles.write(bytes, to: path, mode: 0o640)
    written = bytes
    writtenState = state
    writtenAt = now
    return true
  }

  private func moveAside(because reason: String, log: (LogLevel, String) -> Void) {
    let aside = "\(path).bad-\(Clock.realtime.now().components.seconds)"
    do throws(SystemError) {
      try FileSystem.rename(path, to: aside)
      log(.error, "\(path): \(reason); moved it to \(aside) and started clean")
    } catch {
      log(.error, "\(path): \(reason); starting clean (could not move it aside: \(error))")
    }
  }
}
