import AlarmAudio
import AlarmPlatform
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// The ringer's events, handed from the playback thread to the main thread.
final class RingEvents: Sendable {
  private let pending = Locked<[RingerEvent]>([])
  private let posted = DispatchSemaphore(value: 0)

  func post(_ event: RingerEvent) {
    pending.withLock { $0.append(event) }
    posted.signal()
  }

  /// The next event, waiting for one.
  func next() -> RingerEvent {
    posted.wait()
    return pending.withLock { $0.removeFirst() }
  }
}

/// Writes `text` and a newline to stderr.
func complain(_ text: String) {
  let line = Array((text + "\n").utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
