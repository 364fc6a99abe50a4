/// How much PCM the writer may send by a given moment: the pre-roll at once, then real
/// time, on an absolute schedule (a late wake-up sends what it owes, not less).
///
/// After an underrun or a blocked write the schedule moves on, so the writer never bursts
/// more than the pre-roll ahead of real time.
public struct Pacer: Sendable {
  /// Frames per second.
  public let rate: Int
  /// Frames sent as soon as they are decoded, before pacing starts.
  public let preroll: Int
  /// The writer's wake-up period.
  public let tick: Duration
  /// When the first frame went out (nil: none yet).
  private var start: Duration?
  /// Frames sent since `start`, counted from the schedule's (possibly moved) origin.
  private var sent = 0

  /// A schedule for `rate` frames per second, `preroll` ahead, woken every `tick`.
  public init(rate: Int, preroll: Duration = .seconds(1), tick: Duration = .milliseconds(20)) {
    self.rate = rate
    self.preroll = Pacer.frames(preroll, rate: rate)
    self.tick = tick
  }

  /// Whole frames in `d` at `rate`.
  static func frames(_ d: Duration, rate: Int) -> Int {
    let (s, atto) = d.components
    return Int(s) * rate + Int(atto / 1_000_000_000) * rate / 1_000_000_000
  }

  /// Frames that may go out at `now`.
  public mutating func allowance(at now: Duration) -> Int {
    guard let start else { return preroll }
    var due = preroll + Pacer.frames(now - start, rate: rate)
    if due - sent > preroll {
      // Behind by more than the pre-roll (no audio came, or the reader did not read):
      // start the schedule again from here rather than burst.
      self.start = now
      sent = 0
      due = preroll
    }
    return max(0, due - sent)
  }

  /// Records `frames` sent at `now`.
  public mutating func sent(_ frames: Int, at now: Duration) {
    guard frames > 0 else { return }
    if start == nil { start = now }
    sent += frames
  }

  /// When the writer should look again: the next tick of the schedule after `now`.
  public func nextWake(after now: Duration) -> Duration {
    guard let start else { return now + tick }
    let ticks = (now - start) / tick
    return start + tick * (Int(ticks) + 1)
  }
}

/// The silence rule: PCM whose peak stays below `threshold` (-55 dBFS) for `seconds` (4)
/// of audio in a row is a station that sends only silence.
public struct SilenceWatch: Sendable {
  /// Peak magnitude at or above which a sample counts as sound: -55 dBFS of 32768.
  public static let threshold: Int16 = 58
  /// Seconds of silence in a row that are a problem.
  public let seconds: Int
  private let limit: Int
  private let channels: Int
  private var quietFrames = 0

  /// A watch for PCM of `channels` at `rate`, with `seconds` of silence allowed.
  public init(rate: Int, channels: Int, seconds: Int = 4) {
    self.seconds = seconds
    limit = rate * seconds
    self.channels = channels
  }

  /// The problem text.
  public var problem: String { "the station has sent only silence for \(seconds) s" }

  /// Takes interleaved S16LE samples about to be sent; true once the silence is too long.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let samples = bytes.count / 2
    var i = samples - 1
    while i >= 0 {
      let s = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))
      if s >= SilenceWatch.threshold || s <= -SilenceWatch.threshold { break }
      i -= 1
    }
    let frames = samples / channels
    quietFrames = i >= 0 ? frames - 1 - i / channels : quietFrames + frames
    return quietFrames >= limit
  }
}
