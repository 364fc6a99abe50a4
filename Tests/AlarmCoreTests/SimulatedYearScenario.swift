import AlarmCore

/// A small, fast, seeded PRNG (SplitMix64), so every simulated year can be
/// replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Something that happens to the service from outside, at a real instant.
enum Disturbance {
  /// The system clock is set `by` seconds ahead (negative: back); `fix`:
  /// set back to the true time (NTP) instead.
  case jump(by: Int64)
  case fixClock
  /// The process dies and comes back after `downtime` seconds (0: at once).
  /// `stale`: it boots with the clock at the last saved time (a Pi without
  /// RTC, fake-hwclock), and NTP corrects it after `ntpAfter` seconds.
  case restart(downtime: Int64, stale: Bool, ntpAfter: Int64)
  case edit
  case snooze
  case stop
}

/// Alarm generation: times biased to the zone's DST changes, all the kinds
/// of repeat, one-offs with and without date, skip dates, odd ring lengths.
struct AlarmFactory {
  let oracle: ZoneOracle
  let yearStart: Int64
  var nextID = 0

  /// A time of day near one of the zone's offset changes (inside a gap or
  /// an overlap, or just around it), or any time.
  func time(_ rng: inout SplitMix64) -> LocalTime {
    let changes = oracle.transitions
    var s: Int64
    if !changes.isEmpty && Bool.random(using: &rng) {
      let c = changes.randomElement(using: &rng)!
      let a = ((c.at + c.before) % 86_400 + 86_400) % 86_400
      let b = ((c.at + c.after) % 86_400 + 86_400) % 86_400
      var lo = min(a, b)
      var hi = max(a, b)
      if hi - lo > 43_200 {
        swap(&lo, &hi)
        hi += 86_400
      }  // around midnight
      s = Int64.random(in: (lo - 1800)...(hi + 1800), using: &rng)
      if Int.random(in: 0..<10, using: &rng) < 7 { s -= ((s % 60) + 60) % 60 }
    } else {
      s = Int64.random(in: 0..<1440, using: &rng) * 60
      if Int.random(in: 0..<5, using: &rng) == 0 { s += Int64.random(in: 1..<60, using: &rng) }
    }
    return LocalTime(secondsOfDay: Int((s % 86_400 + 86_400) % 86_400))
  }

  func days(_ rng: inout SplitMix64) -> DaySet {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0, 1: return .daily
    case 2: return .weekdays
    case 3: return .weekends
    case 4, 5: return DaySet(rawValue: UInt8.random(in: 1...127, using: &rng))
    default: return Int.random(in: 0..<2, using: &rng) == 0 ? .never : .daily
    }
  }

  /// A date in the year around `near` (days since epoch).
  func date(near day: Int, _ rng: inout SplitMix64) -> LocalDate {
    LocalDate(daysSinceEpoch: day + Int.random(in: -3...40, using: &rng))
  }

  mutating func make(near clock: Int64, _ rng: inout SplitMix64) -> Alarm {
    nextID += 1
    let today = oracle.localDay(at: clock)
    var defaults = AlarmDefaults()
    defaults.ringFor = .seconds(Int64.random(in: 60...1800, using: &rng))
    defaults.snooze =
      Int.random(in: 0..<5, using: &rng) == 0
      ? nil : .seconds(Int64.random(in: 60...900, using: &rng))
    let days = days(&rng)
    var date: LocalDate?
    if days.isEmpty && Bool.random(using: &rng) { date = self.date(near: today, &rng) }
    var skip: Set<LocalDate> = []
    if Int.random(in: 0..<3, using: &rng) == 0 {
      for _ in 0..<Int.random(in: 1...4, using: &rng) { skip.insert(self.date(near: today, &rng)) }
    }
    return Alarm(
      id: "a\(nextID)", time: time(&rng), days: days, date: date, label: "Alarm \(nextID)",
      defaults: defaults, enabled: Int.random(in: 0..<10, using: &rng) != 0, skip: skip)
  }

  /// The config after one edit, as people make them.
  mutating func edit(_ alarms: [Alarm], near clock: Int64, _ rng: inout SplitMix64) -> [Alarm] {
    var out = alarms
    let today = oracle.localDay(at: clock)
    let kind = out.count < 3 ? 7 : (out.count > 12 ? 8 : Int.random(in: 0..<10, using: &rng))
    let i = Int.random(in: 0..<max(1, out.count), using: &rng)
    switch kind {
    case 0, 1: out[i].time = time(&rng)
    case 2: out[i].enabled.toggle()
    case 3:
      out[i].days = days(&rng)
      out[i].date = out[i].days.isEmpty && Bool.random(using: &rng) ? date(near: today, &rng) : nil
    case 4:
      out[i].ringFor = .seconds(Int64.random(in: 60...1800, using: &rng))
      out[i].snooze =
        Bool.random(using: &rng) ? nil : .seconds(Int64.random(in: 60...900, using: &rng))
    case 5:
      out[i].skip.insert(LocalDate(daysSinceEpoch: today + Int.random(in: 0...3, using: &rng)))
    case 6: out[i].label = "Edited \(Int.random(in: 0..<100, using: &rng))"
    case 7: out.append(make(near: clock, &rng))
    default: out.remove(at: i)
    }
    return out
  }
}
