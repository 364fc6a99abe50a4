// alarmclock-bench: measurements the benches in bench/ need and the product does not.
// Not installed; built with `swift build -c release --product alarmclock-bench`.
import AlarmCore
import AlarmPlatform
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

let usage = """
  usage: alarmclock-bench stop-latency SOUND_FILE [--device NAME] [--count N]

  stop-latency: starts and stops N rings (default 50) of SOUND_FILE looping on NAME
  (default "default"). Each ring waits for its first frame, plays 100-250 ms, then
  Ringer.stop() is timed (the request to the PCM dropped). Prints stops, p50_us,
  p99_us and max_us, one per line.
  """

/// The ringer's events, handed from the playback thread to the main thread.
final class RingEvents: Sendable {
  private let pending = Mutex<[RingerEvent]>([])
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

func monotonicMicroseconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
}

/// Returns the exit status.
func stopLatency(sound: String, device: String, count: Int) -> Int32 {
  let events = RingEvents()
  let ringer = Ringer(defaultSound: nil, events: { events.post($0) })
  let request = RingRequest(
    sound: sound, volume: 80, ramp: .zero, loop: true, devices: [device])
  var micros: [Double] = []
  for i in 0..<count {
    ringer.start(request)
    waitForFirstFrame: while true {
      switch events.next() {
      case .firstFrame: break waitForFirstFrame
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
    let before = monotonicMicroseconds()
    ringer.stop()
    micros.append(monotonicMicroseconds() - before)
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

var args = Array(CommandLine.arguments.dropFirst())
guard args.first == "stop-latency", args.count >= 2 else {
  complain(usage)
  exit(2)
}
let sound = args[1]
var device = "default"
var count = 50
var rest = args.dropFirst(2).makeIterator()
while let flag = rest.next() {
  switch (flag, rest.next()) {
  case ("--device", let value?): device = value
  case ("--count", let value?) where Int(value).map({ (1...10_000).contains($0) }) == true:
    count = Int(value)!
  default:
    complain("alarmclock-bench: bad argument '\(flag)'\n\n\(usage)")
    exit(2)
  }
}
guard access(sound, R_OK) == 0 else {
  complain("alarmclock-bench: cannot read '\(sound)'")
  exit(1)
}
exit(stopLatency(sound: sound, device: device, count: count))
