import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The main thread's work once the request is read: sends the decoder's frames on fd 1,
/// the PCM paced at real time (`Pacer`), and watches fd 0 for the client leaving.
///
/// fd 1 is non-blocking, so a client that stops reading (its buffer full) never keeps a
/// `problem` from going out; the schedule moves on instead of bursting afterwards.
struct FrameWriter {
  /// The descriptor the request came on (EOF there: the client is gone).
  static let input: Int32 = 0
  /// The descriptor the frames go to.
  static let output: Int32 = 1
  /// A finishing helper that cannot hand over its last frame in this long gives up.
  static let finishLimit: Duration = .seconds(2)

  let channel: PCMChannel
  private var pacer: Pacer
  private var silence: SilenceWatch
  private let chunkFrames: Int
  private var pending: [UInt8] = []
  private var written = 0
  private var finishingSince: Duration?

  /// A writer for `request`'s PCM taken from `channel`.
  init(request: StreamWire.Request, channel: PCMChannel) {
    self.channel = channel
    pacer = Pacer(rate: request.rate)
    silence = SilenceWatch(rate: request.rate, channels: request.channels)
    chunkFrames = Pacer.frames(pacer.tick, rate: request.rate)
  }

  /// Runs until the stream ends (its `problem` sent) or the client leaves; then exits the
  /// process with status 0, the decoder thread wherever it is.
  mutating func run() -> Never {
    let flags = fcntl(Self.output, F_GETFL)
    if flags >= 0 { _ = fcntl(Self.output, F_SETFL, flags | O_NONBLOCK) }
    var scratch = [UInt8](repeating: 0, count: 4096)
    while true {
      let now = Clock.monotonic.now()
      if written == pending.count {
        pending.removeAll(keepingCapacity: true)
        written = 0
        if finishingSince != nil { _exit(0) }
        fill(now)
      }
      flush()
      if finishingSince != nil && written == pending.count { _exit(0) }
      if let since = finishingSince, now - since > Self.finishLimit { _exit(0) }
      var fds = [
        pollfd(fd: Self.input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: channel.wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
        pollfd(
          fd: Self.output, events: Int16(written < pending.count ? POLLOUT : 0), revents: 0),
      ]
      // Blocked on the client: look again soon. PCM queued: at the schedule's next tick.
      // Nothing queued: the channel's eventfd says when something comes.
      let wait: Int32 =
        written < pending.count
        ? 100 : channel.available > 0 ? (pacer.nextWake(after: now) - now).pollTimeout : -1
      _ = try? retryingEINTR("poll") { poll(&fds, 3, wait) }
      if fds[0].revents != 0 { readInput(&scratch) }
      if fds[1].revents != 0 { channel.wake.drain() }
      if fds[2].revents & Int16(POLLERR | POLLHUP) != 0 { _exit(0) }
    }
  }

  /// Queues what is due: the decoder's messages, then PCM the schedule allows, or the
  /// `problem` that ends the stream.
  private mutating func fill(_ now: Duration) {
    // The ending first: PCM pushed before it is then all counted (none lost behind a
    // "the stream ended"). PCM counted before the messages are taken: a `ready` posted
    // before it goes first.
    let ending = channel.currentEnding
    let queued = channel.available
    for message in channel.takeMessages() { pending += StreamWire.encode(message) }
    switch ending {
    case .now(let reason)?:
      finish(reason, now)
      return
    case .afterQueue(let reason)? where queued == 0:
      finish(reason, now)
      return
    default: break
    }
    var left = min(queued, pacer.allowance(at: now))
    while left > 0 {
      let headerAt = pending.count
      pending += StreamWire.header(.pcm, payloadCount: 0)
      let n = channel.take(frames: min(left, chunkFrames), appendingTo: &pending)
      if n == 0 {
        pending.removeSubrange(headerAt...)
        break
      }
      let payload = pending.count - headerAt - StreamWire.headerBytes
      pending.replaceSubrange(
        headerAt..<(headerAt + StreamWire.headerBytes),
        with: StreamWire.header(.pcm, payloadCount: payload))
      pacer.sent(n, at: now)
      left -= n
      let silent = pending.withUnsafeBytes {
        silence.feed(UnsafeRawBufferPointer(rebasing: $0[(headerAt + StreamWire.headerBytes)...]))
      }
      if silent {
        finish(silence.problem, now)
        return
      }
    }
    if case .afterQueue(let reason)? = ending, channel.available == 0 { finish(reason, now) }
  }

  /// Queues the last frame.
  private mutating func finish(_ reason: String, _ now: Duration) {
    pending += StreamWire.encode(StreamWire.Message(.problem, text: reason))
    finishingSince = now
    HelperLog.write(reason)
  }

  /// Writes what fd 1 takes now; a client gone ends the process.
  private mutating func flush() {
    while written < pending.count {
      let n = pending.withUnsafeBytes { bytes in
        write(Self.output, bytes.baseAddress! + written, bytes.count - written)
      }
      if n > 0 {
        written += n
        continue
      }
      let code = errno
      if n < 0 && (code == EINTR) { continue }
      if n < 0 && (code == EAGAIN || code == EWOULDBLOCK) { return }
      // EPIPE, ECONNRESET: the client closed; anything else leaves nobody to tell.
      _exit(0)
    }
  }

  /// fd 0 readable: EOF or an error is the client leaving; anything it sends is ignored.
  private func readInput(_ scratch: inout [UInt8]) {
    let n = scratch.withUnsafeMutableBytes { read(Self.input, $0.baseAddress, $0.count) }
    if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { _exit(0) }
  }
}
