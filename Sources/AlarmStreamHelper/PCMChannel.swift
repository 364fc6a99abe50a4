import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// What the decoder thread hands the writer: a bounded queue of PCM, the frames that go
/// with it (`ready`, `title`, `notice`), and how the stream ended.
///
/// The decoder blocks in `push` while the queue is full (a file over HTTP decodes faster
/// than real time); the writer takes PCM at its own pace. Messages, the ending, and PCM
/// arriving in an empty queue signal `wake`, the eventfd the writer polls.
final class PCMChannel: @unchecked Sendable {
  /// How the stream stopped, as far as the decoder knows.
  enum Ending: Equatable {
    /// Send this problem at once, ahead of the queued audio.
    case now(String)
    /// Send this problem once the queued audio is sent (a finite stream's end, loop=0).
    case afterQueue(String)
  }

  /// Samples per frame (the requested channel count).
  let channels: Int
  /// Queue size in frames.
  let capacity: Int
  /// Readable while something changed for the writer.
  let wake: EventFd

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let notFull: UnsafeMutablePointer<pthread_cond_t>
  // Not initialised up front: pages are touched (and count in the RSS) only as they fill.
  private let ring: UnsafeMutablePointer<Int16>
  private var head = 0
  private var count = 0
  private var messages: [StreamWire.Message] = []
  private var ending: Ending?

  /// A queue of `capacity` frames of `channels` samples.
  init(channels: Int, capacity: Int) throws(SystemError) {
    self.channels = channels
    self.capacity = max(1, capacity)
    wake = try EventFd()
    ring = .allocate(capacity: self.capacity * channels)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    notFull = .allocate(capacity: 1)
    notFull.initialize(to: pthread_cond_t())
    pthread_cond_init(notFull, nil)
  }

  deinit {
    pthread_cond_destroy(notFull)
    pthread_mutex_destroy(mutex)
    notFull.deallocate()
    mutex.deallocate()
    ring.deallocate()
  }

  private func locked<R>(_ body: () -> R) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  // MARK: The decoder's side

  /// Appends interleaved frames, waiting while the queue is full. Returns false once the
  /// stream has ended (nothing more is wanted).
  @discardableResult
  func push(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
    var done = 0
    let total = samples.count / channels
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while done < total {
      while count == capacity && ending == nil { pthread_cond_wait(notFull, mutex) }
      if ending != nil { return false }
      let tail = (head + count) % capacity
      let n = min(total - done, capacity - count, capacity - tail)
      (ring + tail * channels).update(
        from: samples.baseAddress! + done * channels, count: n * channels)
      // The writer waits for this only when it has sent everything; otherwise its own
      // schedule wakes it, and a signal per decoded frame would only cost wake-ups.
      if count == 0 { wake.signal() }
      count += n
      done += n
    }
    return true
  }

  /// Queues a frame for the writer (sent before any PCM pushed after it).
  func post(_ message: StreamWire.Message) {
    locked { messages.append(message) }
    wake.signal()
  }

  /// Ends the stream; the first ending wins.
  func end(_ how: Ending) {
    locked {
      if ending == nil { ending = how }
      pthread_cond_broadcast(notFull)
    }
    wake.signal()
  }

  // MARK: The writer's side

  /// The frames posted since the last call.
  func takeMessages() -> [StreamWire.Message] {
    locked {
      defer { messages.removeAll() }
      return messages
    }
  }

  /// How the stream ended, if it has.
  var currentEnding: Ending? { locked { ending } }

  /// Frames queued now.
  var available: Int { locked { count } }

  /// Moves up to `frames` queued frames to the end of `out` as S16LE bytes; returns how many.
  func take(frames: Int, appendingTo out: inout [UInt8]) -> Int {
    locked {
      let n = min(frames, count)
      var left = n
      while left > 0 {
        let run = min(left, capacity - head)
        let bytes = UnsafeRawBufferPointer(start: ring + head * channels, count: run * channels * 2)
        #if _endian(big)
          for i in stride(from: 0, to: bytes.count, by: 2) {
            out.append(bytes[i + 1])
            out.append(bytes[i])
          }
        #else
          out.append(contentsOf: bytes)
        #endif
        head = (head + run) % capacity
        count -= run
        left -= run
      }
      if n > 0 { pthread_cond_signal(notFull) }
      return n
    }
  }
}
