import AlarmCore
import AlarmFiles
import AlarmPlatform

/// A stream sound as the playback thread sees it: the stream while it delivers, the
/// fallback sound whenever it does not, switching only between two reads (a period
/// boundary), so the ring is never silent and never late.
///
/// - At the first read (the firing), the stream plays if it has audio buffered and no
///   problem; otherwise the fallback rings from the first frame, until the stream's first
///   audio (a ring after a snooze, `alarmclock play`: the helper starts with the ring).
/// - While the stream plays, a problem the feed reports, or a buffer that runs dry, hands
///   the rest of that period and what follows to the fallback at once.
/// - Back on the fallback, the stream takes over again once it has delivered steadily for
///   `resumeAfter` (the feed keeps reconnecting with a back-off).
///
/// Never throws and never ends: a fallback file that cannot be decoded is replaced by the
/// fallback tone here, so the stream can still take over later.
final class StreamSource: AudioSource {
  /// What a ring hears about its stream (reported from the playback thread).
  enum Event: Equatable {
    /// The stream plays (at the firing, or again after the fallback).
    case playing
    /// The fallback rings instead, and why.
    case fallback(String)
  }

  /// Buffered audio the stream needs at the firing to be played from its first frame.
  static let startBuffer: Duration = .milliseconds(250)
  /// How long a stream back from a problem must deliver before it takes over again.
  static let resumeAfter: Duration = .seconds(3)

  let sampleRate: Int
  let channels: Int
  let url: String
  private let feed: StreamFeed?
  /// Why there is no feed at all (no helper configured, or it could not start).
  private let noFeed: String?
  private var fallback: any AudioSource
  private var onStream = false
  private var started = false
  private var problemsSeen = 0
  /// When the stream last gave way to the fallback in this ring (monotonic).
  private var leftAt: Duration?
  /// The reason last reported for the fallback (a repeat is not reported again).
  private var said = ""
  private var scratch = PinnedBuffer<Float>(count: 0)
  private let report: (Event) -> Void
  private let log: AudioLog

  /// Starts fetching `sound`'s stream through `helper` now (the prepare point), and opens
  /// its fallback (`defaultSound` when the sound names none).
  init(
    _ sound: StreamSound, helper: StreamHelper?, defaultSound: String?,
    reserve: DescriptorReserve, log: @escaping AudioLog, report: @escaping (Event) -> Void
  ) {
    sampleRate = 48_000
    channels = 2
    url = sound.url
    self.report = report
    self.log = log
    var feed: StreamFeed? = nil
    var why: String? = nil
    if let helper {
      do {
        feed = try StreamFeed(
          request: StreamWire.Request(url: sound.url, rate: sampleRate, channels: channels),
          helper: helper, log: log)
      } catch {
        why = "the stream cannot be fetched: \(error)"
      }
    } else {
      why = "streams need the stream helper (alarmclock-stream), which is not set up"
    }
    self.feed = feed
    noFeed = why
    fallback = Self.openFallback(
      sound, defaultSound: defaultSound, rate: sampleRate, reserve: reserve, log: log)
  }

  deinit { feed?.close() }

  func read(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
    let health = feed?.health
    if onStream, let feed, let health {
      let fresh = health.problems != problemsSeen
      let got = fresh ? 0 : feed.take(into: out, frames: frames)
      if got == frames { return frames }
      problemsSeen = health.problems
      onStream = false
      leftAt = Clock.monotonic.now()
      said = fresh ? health.problem ?? "the stream stopped" : "the stream stopped delivering audio"
      report(.fallback(said))
      readFallback(into: out + got * channels, frames: frames - got)
      return frames
    }
    if feed != nil, let health, health.ready, health.problem == nil,
      health.buffered >= Int(Self.startBuffer.secondsDouble * Double(sampleRate)),
      !started || (leftAt == nil && health.problems == 0) || resumes(health)
    {
      started = true
      onStream = true
      problemsSeen = health.problems
      report(.playing)
      return read(into: out, frames: frames)
    }
    if !started {
      started = true
      said =
        noFeed ?? health?.problem ?? "the stream had delivered no audio yet when the ring began"
      report(.fallback(said))
    } else if let health, health.problems != problemsSeen, let problem = health.problem {
      // The fallback rings on; the reason shown becomes the latest attempt's.
      problemsSeen = health.problems
      if problem != said {
        said = problem
        report(.fallback(problem))
      }
    }
    readFallback(into: out, frames: frames)
    return frames
  }

  /// Whether the stream, back after a fault, has delivered for `resumeAfter` since the
  /// feed's last problem and since it last left (an underrun is no problem of the feed's:
  /// without the second rule a stream decoded slower than real time would flap).
  private func resumes(_ health: StreamFeed.Health) -> Bool {
    guard health.steadyFor >= Self.resumeAfter else { return false }
    guard let leftAt else { return true }
    return Clock.monotonic.now() - leftAt >= Self.resumeAfter
  }

  /// A stream does not rewind: it never ends here (the helper loops a file).
  func rewind() {}

  // MARK: The fallback

  /// Fills `frames` frames from the fallback, looping it and mapping its channels.
  private func readFallback(into out: UnsafeMutablePointer<Float>, frames: Int) {
    var done = 0
    var emptyReads = 0
    while done < frames {
      let inCh = fallback.channels
      let want = frames - done
      if scratch.count < want * inCh { scratch = PinnedBuffer(count: want * inCh) }
      var got = 0
      do throws(SoundError) {
        got = try fallback.read(into: scratch.base, frames: want)
        if got == 0 {
          emptyReads += 1
          if emptyReads > 2 {
            throw SoundError(file: "fallback sound", reason: .truncated("no frames"))
          }
          try fallback.rewind()
          continue
        }
      } catch {
        log(.warning, "audio: fallback sound: \(error); ringing the fallback tone")
        fallback = FallbackTone(sampleRate: sampleRate, channels: channels)
        continue
      }
      for f in 0..<got {
        for c in 0..<channels {
          out[(done + f) * channels + c] = scratch.base[f * inCh + min(c, inCh - 1)]
        }
      }
      done += got
    }
  }

  private static func openFallback(
    _ sound: StreamSound, defaultSound: String?, rate: Int, reserve: DescriptorReserve,
    log: AudioLog
  ) -> any AudioSource {
    do throws(SoundError) {
      if let problem = sound.fallbackProblem { throw problem }
      guard let path = sound.fallback ?? defaultSound else {
        throw SoundError(file: SoundResolver.defaultSoundName, reason: .notFound(searched: []))
      }
      let decoder = try reserve.retrying { () throws(SoundError) in try SoundDecoder(path: path) }
      return decoder.sampleRate == rate ? decoder : RateConverter(decoder, to: rate)
    } catch {
      log(.warning, "audio: fallback sound: \(error); the fallback tone is the stream's fallback")
      return FallbackTone(sampleRate: rate, channels: 2)
    }
  }
}
