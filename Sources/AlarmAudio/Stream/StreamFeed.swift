import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// One stream's PCM, fetched by a helper process and kept ready for the playback thread.
///
/// A thread of its own connects to the helper, sends the request and reads its frames into
/// a small buffer. Anything that goes wrong (a `problem` frame, the helper gone, no audio
/// for `stallLimit`, no `ready` within `openLimit`) closes the helper, records why, and
/// connects again after a back-off (1, 2, 4, 8, 15, 30 s), until `close()`. Whether to
/// play it is the reader's call (`StreamSource`): it sees `health` and takes frames.
final class StreamFeed: @unchecked Sendable {
  /// What the feed can say about the stream at a moment.
  struct Health: Equatable {
    /// The helper said `ready`, and audio has come since the last problem.
    var ready: Bool
    /// Frames buffered now.
    var buffered: Int
    /// How long the stream has been delivering without a problem (zero when it is not).
    var steadyFor: Duration
    /// Why the stream stopped last, until it delivers again.
    var problem: String?
    /// Counts problems: a reader sees a new one even when its text repeats.
    var problems: Int
  }

  /// No audio for this long from a helper that said `ready` is a stall.
  static let stallLimit: Duration = .milliseconds(1000)
  /// A helper that has not said `ready` this long after the connection has failed.
  static let openLimit: Duration = .seconds(20)
  /// The waits before connecting again after a problem, the last repeated.
  static let backoff: [Duration] = [
    .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(15), .seconds(30),
  ]

  /// A stream that played this long before its problem starts the back-off from 1 s.
  static let backoffReset: Duration = .seconds(10)

  let request: StreamWire.Request
  let helper: StreamHelper
  let capacityFrames: Int
  private let log: AudioLog
  private let wake: EventFd
  private var thread = pthread_t()
  private var started = false

  private struct Shared {
    var samples: [Int16]
    var head = 0
    var count = 0
    var live = true
    var ready = false
    var problem: String?
    var problems = 0
    var title: String?
    var steadySince: Duration?
    /// The last time audio arrived, or the buffer was full (not wanting any).
    var lastProgress: Duration = .zero
    var closed = false
  }
  private let shared: Locked<Shared>

  /// Starts fetching `request` through `helper` at once.
  init(
    request: StreamWire.Request, helper: StreamHelper, capacity: Duration = .seconds(2),
    log: @escaping AudioLog
  ) throws(SystemError) {
    self.request = request
    self.helper = helper
    self.log = log
    capacityFrames = max(1, Int(capacity.secondsDouble * Double(request.rate)))
    shared = Locked(
      Shared(samples: [Int16](repeating: 0, count: capacityFrames * request.channels)))
    wake = try EventFd()
    // The thread holds the feed until it ends (`close()` joins it).
    thread = try NativeThread.start("stream") { [self] in run() }
    started = true
  }

  /// Ends the helper and the thread; returns when both are gone.
  func close() {
    let first = shared.withLock { s -> Bool in
      defer { s.closed = true }
      return !s.closed
    }
    guard first, started else { return }
    wake.signal()
    pthread_join(thread, nil)
  }

  /// The stream's state now.
  var health: Health {
    let now = Clock.monotonic.now()
    return shared.withLock { s in
      Health(
        ready: s.ready, buffered: s.count,
        steadyFor: s.steadySince.map { now - $0 } ?? .zero, problem: s.problem,
        problems: s.problems)
    }
  }

  /// Takes up to `frames` buffered frames as floats in [-1, 1]; returns how many.
  func take(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
    let ch = request.channels
    return shared.withLock { s in
      let n = min(frames, s.count)
      let capacity = capacityFrames
      s.samples.withUnsafeBufferPointer { ring in
        var at = s.head
        for f in 0..<n {
          for c in 0..<ch { out[f * ch + c] = Float(ring[at * ch + c]) * (1.0 / 32768.0) }
          at += 1
          if at == capacity { at = 0 }
        }
      }
      s.head = (s.head + n) % capacity
      s.count -= n
      return n
    }
  }

  // MARK: The feed's thread

  private var isClosed: Bool { shared.withLock { $0.closed } }

  private func run() {
    var failures = 0
    while !isClosed {
      let problem = session()
      if isClosed { break }
      let wait = Self.backoff[min(failures, Self.backoff.count - 1)]
      failures += 1
      shared.withLock { s in
        // A helper that played for a while before failing starts the back-off again.
        if s.steadySince.map({ Clock.monotonic.now() - $0 > Self.backoffReset }) == true {
          failures = 1
        }
        s.ready = false
        s.steadySince = nil
        s.problem = problem
        s.problems += 1
        s.count = 0
      }
      log(
        .warning,
        "stream \(StreamURL.redacted(request.url)): \(problem); trying again in "
          + DurationText.format(wait))
      sleep(wait)
    }
  }

  /// Sleeps `d`, waking early for `close()`.
  private func sleep(_ d: Duration) {
    let end = Clock.monotonic.now() + d
    while !isClosed {
      let left = end - Clock.monotonic.now()
      if left <= .zero { return }
      var fds = [pollfd(fd: wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
      _ = try? retryingEINTR("poll(stream wait)") { poll(&fds, 1, left.pollTimeout) }
    }
  }

  /// One helper from connection to problem; returns the problem.
  private func session() -> String {
    let connection: StreamConnection
    do {
      connection = try helper.connect()
    } catch {
      return "the stream helper (\(helper.description)) cannot be started: \(error)"
    }
    defer { connection.close() }
    do {
      try connection.fd.writeAll(request.line)
    } catch {
      return "the stream helper did not take the request: \(error)"
    }
    let opened = Clock.monotonic.now()
    shared.withLock { $0.lastProgress = opened }
    var decoder = StreamFrameDecoder()
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let (ready, full, last) = shared.withLock { s in
        (s.ready, s.count == capacityFrames, s.lastProgress)
      }
      if isClosed { return "closed" }
      let now = Clock.monotonic.now()
      let wantsData = !(full && ready && !shared.withLock { $0.live })
      if !wantsData { shared.withLock { $0.lastProgress = now } }
      if ready && now - last > Self.stallLimit {
        return "no audio from the stream for \(DurationText.milliseconds(now - last))"
      }
      if !ready && now - opened > Self.openLimit {
        return "the stream did not start within \(DurationText.format(Self.openLimit))"
      }
      var fds = [
        pollfd(fd: connection.fd.rawValue, events: Int16(wantsData ? POLLIN : 0), revents: 0),
        pollfd(fd: wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
      ]
      let n = (try? retryingEINTR("poll(stream)") { poll(&fds, 2, 100) }) ?? 0
      if n <= 0 || fds[0].revents == 0 { continue }
      let got: Int
      do {
        got = try connection.fd.readSome(into: chunk)
      } catch {
        if error.isWouldBlock { continue }
        return "the stream helper's connection failed: \(error)"
      }
      if got == 0 { return "the stream helper ended without saying why" }
      decoder.append(UnsafeRawBufferPointer(rebasing: chunk[0..<got]))
      do {
        while let message = try decoder.next() {
          if let problem = handle(message) { return problem }
        }
      } catch {
        return "the stream helper broke the protocol: \(error)"
      }
    }
  }

  /// Takes one frame in; returns a problem that ends the session.
  private func handle(_ message: StreamWire.Message) -> String? {
    switch message.kind {
    case .ready:
      let info = StreamWire.ReadyInfo.parse(message.text)
      shared.withLock { s in
        s.ready = true
        s.live = info?.live ?? true
        s.lastProgress = Clock.monotonic.now()
      }
      log(
        .info,
        "stream \(StreamURL.redacted(request.url)): open"
          + (info.map { " (\($0.codec), \($0.sourceRate) Hz, \($0.live ? "live" : "a file"))" }
            ?? ""))
    case .pcm:
      append(message.payload)
    case .title:
      let title = message.text
      let changed = shared.withLock { s -> Bool in
        defer { s.title = title }
        return s.title != title
      }
      if changed && !title.isEmpty { log(.info, "stream title: \(title)") }
    case .notice:
      log(.info, "stream \(StreamURL.redacted(request.url)): \(message.text)")
    case .problem:
      return message.text.isEmpty ? "the stream stopped" : message.text
    }
    return nil
  }

  /// Adds S16LE samples; a live stream's oldest frames make room when the buffer is full.
  private func append(_ bytes: [UInt8]) {
    let ch = request.channels
    let frames = bytes.count / (2 * ch)
    guard frames > 0 else { return }
    let now = Clock.monotonic.now()
    shared.withLock { s in
      let capacity = capacityFrames
      let skip = max(0, frames - capacity)
      let room = capacity - s.count
      if frames - skip > room {
        let drop = frames - skip - room
        s.head = (s.head + drop) % capacity
        s.count -= drop
      }
      var tail = (s.head + s.count) % capacity
      s.samples.withUnsafeMutableBufferPointer { ring in
        bytes.withUnsafeBytes { raw in
          for f in skip..<frames {
            for c in 0..<ch {
              let i = (f * ch + c) * 2
              ring[tail * ch + c] = Int16(bitPattern: UInt16(raw[i]) | UInt16(raw[i + 1]) << 8)
            }
            tail += 1
            if tail == capacity { tail = 0 }
          }
        }
      }
      s.count += frames - skip
      s.lastProgress = now
      if s.problem != nil || s.steadySince == nil {
        s.problem = nil
        s.steadySince = s.steadySince ?? now
      }
    }
  }
}
