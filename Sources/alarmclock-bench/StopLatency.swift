import AlarmAudio
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Starts and stops `count` rings of `sound` looping on `device`, timing each
/// `Ringer.stop()` (the request to the PCM dropped); with `speech`, that WAV is said over
/// each ring from its first frame, so the stop comes while words are mixed in.
/// Returns the exit status.
func stopLatency(sound: String, device: String, count: Int, speech: String? = nil) -> Int32 {
  var clip: SpeechClip?
  if let speech {
    do {
      clip = try SpeechClip.load(speech)
    } catch {
      complain("alarmclock-bench: \(error)")
      return 1
    }
  }
  let events = RingEvents()
  let ringer: Ringer
  do {
    ringer = try Ringer(defaultSound: nil, events: { events.post($0) })
  } catch {
    complain("alarmclock-bench: cannot start the ringer: \(error)")
    return 1
  }
  let request = RingRequest(
    sound: sound, volume: 80, ramp: .zero, loop: true, devices: [device])
  var micros: [Double] = []
  for i in 0..<count {
    ringer.start(request)
    waitForFirstFrame: while true {
      switch events.next() {
      case .firstFrame:
        if let clip { ringer.announce(clip, percent: 80) }
        break waitForFirstFrame
      case .noDevice:
        ringer.stop()
        complain("alarmclock-bench: no audio device could be opened ('\(device)')")
        return 1
      case .fallbackTone(let error):
        complain("alarmclock-bench: \(error); timing the fallback tone")
      default: continue
      }
    }
    // Stop at a varying point of the period, 100 to 248 ms in.
    var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000 + (i % 5) * 37_000_000)
    nanosleep(&pause, nil)
    let before = Clock.monotonic.now()
    ringer.stop()
    micros.append(Clock.monotonic.since(before).secondsDouble * 1e6)
    while true {
      if case .stopped = events.next() { break }
    }
  }
  micros.sort()
  func percentile(_ p: Double) -> Int {
    Int(micros[min(micros.count - 1, Int(Double(micros.count) * p))])
  }
  print("stops: \(micros.count)")
  print("p50_us: \(percentile(0.50))")
  print("p99_us: \(percentile(0.99))")
  print("max_us: \(Int(micros.last ?? 0))")
  return 0
}
