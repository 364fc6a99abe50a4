import AlarmAudio
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// When `out-of-descriptors` uses up the process's descriptors.
enum DescriptorExhaustion: String {
  /// Before the ringer is made: it must fail with an error, not hang or stay silent.
  case before
  /// After: the ring must still open its sound and PCM (the ringer's reserve).
  case after
}

/// Lowers the soft descriptor limit to a little above what is open and opens /dev/null
/// until the next open fails with EMFILE. The caller keeps them open.
func exhaustDescriptors() -> [FileDescriptor] {
  var held: [FileDescriptor] = []
  guard let first = try? FileDescriptor.open("/dev/null", O_RDONLY) else { return held }
  held.append(first)
  var limit = rlimit()
  if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
    // A few dozen above the lowest free number: filling takes microseconds, not a
    // million opens under a container's high limit.
    limit.rlim_cur = min(limit.rlim_max, rlim_t(first.rawValue) + 48)
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
  }
  while let fd = try? FileDescriptor.open("/dev/null", O_RDONLY) { held.append(fd) }
  return held
}

/// Plays `sound` once on `device` with every descriptor used up `when`; returns the exit
/// status (0: it played to the end; 1: the ringer could not start or no device opened).
func playOutOfDescriptors(_ when: DescriptorExhaustion, sound: String, device: String) -> Int32 {
  let events = RingEvents()
  var held = when == .before ? exhaustDescriptors() : []
  defer { held.removeAll() }
  let ringer: Ringer
  do {
    ringer = try Ringer(defaultSound: nil, events: { events.post($0) })
  } catch {
    held.removeAll()
    complain("alarmclock-bench: cannot start the ringer: \(error)")
    return 1
  }
  if when == .after { held = exhaustDescriptors() }
  ringer.start(RingRequest(sound: sound, volume: 100, ramp: .zero, loop: false, devices: [device]))
  while true {
    switch events.next() {
    case .stopped: return 0
    case .noDevice:
      ringer.stop()
      complain("alarmclock-bench: no audio device could be opened ('\(device)')")
      return 1
    case .fallbackTone(let error): complain("alarmclock-bench: \(error); playing the fallback tone")
    default: continue
    }
  }
}
