import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Spare descriptors (`/dev/null`, opened at ringer init) that the playback path gives
/// back when the process (EMFILE) or the system (ENFILE) has run out, so that the sound
/// file and the PCM still open and the alarm sounds. Taken again after the retry, as far
/// as the limit allows; a later ring tops the reserve up.
final class DescriptorReserve: Sendable {
  /// Enough for a PCM through the PulseAudio plugin (socket, shared memory, eventfds,
  /// its mainloop's pipe) plus the sound file.
  static let standardCount = 24

  let count: Int
  private let spares: Locked<[FileDescriptor]>

  /// Opens `count` spares; throws when not even those can be had (the ringer must not
  /// start out of descriptors).
  init(count: Int = DescriptorReserve.standardCount) throws(SystemError) {
    self.count = count
    var taken: [FileDescriptor] = []
    for _ in 0..<count { taken.append(try DescriptorReserve.openSpare()) }
    spares = Locked(taken)
  }

  /// Spares held now.
  var held: Int { spares.withLock { $0.count } }

  /// Runs `body`; when it fails and descriptors have run out, releases the spares, runs it
  /// once more, then takes back as many spares as it can. Works for any error type, since
  /// libraries (ALSA's PulseAudio plugin) report exhaustion as other errors.
  func retrying<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    do {
      return try body()
    } catch {
      guard isExhausted(), release() > 0 else { throw error }
      defer { replenish() }
      return try body()
    }
  }

  /// Takes spares until `count` are held or no more can be opened.
  func replenish() {
    spares.withLock { list in
      while list.count < count, let fd = try? DescriptorReserve.openSpare() { list.append(fd) }
    }
  }

  /// Whether a new descriptor cannot be had now (EMFILE or ENFILE).
  func isExhausted() -> Bool {
    do {
      _ = try DescriptorReserve.openSpare()
      return false
    } catch {
      return error.errno == EMFILE || error.errno == ENFILE
    }
  }

  /// Closes every spare; returns how many.
  private func release() -> Int {
    spares.withLock { list in
      let n = list.count
      for fd in list { fd.close() }
      list.removeAll()
      return n
    }
  }

  private static func openSpare() throws(SystemError) -> FileDescriptor {
    try FileDescriptor.open("/dev/null", O_RDONLY)
  }
}
