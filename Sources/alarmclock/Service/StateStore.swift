import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The state file in the state directory: read once at start-up, written atomically after
/// every change. A file that cannot be decoded is moved aside (never deleted) and the
/// service starts clean; a write that fails (disk full, read-only) is retried by the
/// service while the sound goes on.
struct StateStore {
  let directory: String
  var path: String { directory + "/state.json" }
  /// The last bytes written successfully: an unchanged state is not rewritten.
  private var written: [UInt8]?

  init(directory: String) { self.directory = directory }

  /// The saved state, or a fresh one; `log` hears why a file was not used.
  mutating func load(log: (LogLevel, String) -> Void) -> ServiceState {
    do throws(SystemError) {
      try FileSystem.createDirectory(directory, mode: 0o750, intermediates: true)
    } catch {
      log(.error, "state directory: \(error); state will not survive a restart until fixed")
    }
    let bytes: [UInt8]
    do throws(SystemError) {
      bytes = try FileSystem.readFile(path, limit: StateCodec.maxFileSize)
    } catch  where error.errno == ENOENT {
      log(.info, "no state file at \(path): starting clean")
      return ServiceState()
    } catch {
      moveAside(because: error.description, log: log)
      return ServiceState()
    }
    do throws(StateDecodeError) {
      let state = try StateCodec.decode(bytes)
      written = bytes
      return state
    } catch {
      moveAside(because: error.description, log: log)
      return ServiceState()
    }
  }

  /// Writes `state` if it differs from what is on disk. Throws when the write failed.
  mutating func save(_ state: ServiceState) throws(SystemError) {
    let bytes = StateCodec.encode(state)
    if bytes == written { return }
    try AtomicFile.write(bytes, to: path, mode: 0o640)
    written = bytes
  }

  private func moveAside(because reason: String, log: (LogLevel, String) -> Void) {
    let aside = "\(path).bad-\(time(nil))"
    do throws(SystemError) {
      try FileSystem.rename(path, to: aside)
      log(.error, "\(path): \(reason); moved it to \(aside) and started clean")
    } catch {
      log(.error, "\(path): \(reason); starting clean (could not move it aside: \(error))")
    }
  }
}
