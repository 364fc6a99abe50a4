// alarmclock-bench: measurements the benches in bench/ need and fault injection the
// tests need, neither of which belongs in the product. Not installed; built with
// `swift build --product alarmclock-bench` (-c release for the benches).
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

let usage = """
  usage: alarmclock-bench stop-latency SOUND_FILE [--device NAME] [--count N] [--speech WAV]
         alarmclock-bench out-of-descriptors before|after SOUND_FILE [--device NAME]

  stop-latency: starts and stops N rings (default 50) of SOUND_FILE looping on NAME
  (default "default"). Each ring waits for its first frame, plays 100-250 ms, then
  Ringer.stop() is timed (the request to the PCM dropped). Prints stops, p50_us,
  p99_us and max_us, one per line. With --speech, WAV (espeak-ng's) is said over each
  ring from its first frame (Ringer.announce, the ring ducked): the stop comes while the
  words are mixed in.

  out-of-descriptors: uses up every file descriptor before or after the ringer is made,
  then plays SOUND_FILE once on NAME: 'after' must still play the file (the ringer's
  reserve), 'before' must fail with an error, not hang. Exit 0 when it played.
  """

/// The options after the subcommand's positional words: `--device`, `--count`, `--speech`.
func options(_ words: ArraySlice<String>) -> (device: String, count: Int, speech: String?) {
  var device = "default"
  var count = 50
  var speech: String?
  var rest = words.makeIterator()
  while let flag = rest.next() {
    switch (flag, rest.next()) {
    case ("--device", let value?): device = value
    case ("--speech", let value?): speech = readable(value)
    case ("--count", let value?) where Int(value).map({ (1...10_000).contains($0) }) == true:
      count = Int(value)!
    default:
      complain("alarmclock-bench: bad argument '\(flag)'\n\n\(usage)")
      exit(2)
    }
  }
  return (device, count, speech)
}

func readable(_ sound: String) -> String {
  guard access(sound, R_OK) == 0 else {
    complain("alarmclock-bench: cannot read '\(sound)'")
    exit(1)
  }
  return sound
}

let args = Array(CommandLine.arguments.dropFirst())
switch (args.first, args.count) {
case ("stop-latency", 2...):
  let (device, count, speech) = options(args.dropFirst(2))
  exit(stopLatency(sound: readable(args[1]), device: device, count: count, speech: speech))
case ("out-of-descriptors", 3...):
  guard let when = DescriptorExhaustion(rawValue: args[1]) else {
    complain("alarmclock-bench: out-of-descriptors wants before or after, not '\(args[1])'")
    exit(2)
  }
  let (device, _, _) = options(args.dropFirst(3))
  exit(playOutOfDescriptors(when, sound: readable(args[2]), device: device))
default:
  complain(usage)
  exit(2)
}
