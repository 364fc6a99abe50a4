import AlarmCore

/// The simulated year's independent expectation: when each alarm should
/// ring, computed without the Schedule code. The zone's offsets are scanned
/// directly (`TimeZoneRules.offset(at:)`, hour by hour, then bisected to the
/// second), and each wall time is mapped by RFC 5545 over those segments: a
/// time in a gap takes the offset before the gap, a repeated time the first
/// occurrence.
struct ZoneOracle {
  /// Segments of constant offset, ascending: `offsets[i]` holds from
  /// `starts[i]` to `starts[i + 1]` (the first from the scan's start).
  let starts: [Int64]
  let offsets: [Int64]
  let rules: TimeZoneRules

  init(rules: TimeZoneRules, from: Int64, through: Int64) {
    self.rules = rules
    func offset(_ t: Int64) -> Int64 { Int64(rules.offset(at: Instant(seconds: t))) }
    var starts = [from - 4 * 86_400]
    var offsets = [offset(from - 4 * 86_400)]
    var t = starts[0]
    while t < through + 4 * 86_400 {
      let next = t + 3600
      if offset(next) != offsets.last! {
        // The exact second the offset changes, by bisection in (t, next].
        var lo = t
        var hi = next
        while hi - lo > 1 {
          let mid = (lo + hi) / 2
          if offset(mid) == offsets.last! { lo = mid } else { hi = mid }
        }
        starts.append(hi)
        offsets.append(offset(hi))
      }
      t = next
    }
    self.starts = starts
    self.offsets = offsets
  }

  /// The offset changes in the scanned range (for choosing nasty alarm times).
  var transitions: [(at: Int64, before: Int64, after: Int64)] {
    (1..<starts.count).map { (starts[$0], offsets[$0 - 1], offsets[$0]) }
  }

  /// The instant of a wall time given as seconds since 1970-01-01T00:00 local.
  func instant(wall: Int64) -> Int64 {
    for i in offsets.indices {
      let t = wall - offsets[i]
      let end = i + 1 < starts.count ? starts[i + 1] : Int64.max
      if t >= starts[i] && t < end { return t }  // earliest segment: first occurrence
      // Passed the end of this segment's wall range and before the next one's
      // start: the wall time is in a gap; take the offset before it.
      if i + 1 < starts.count, t >= end, wall - offsets[i + 1] < starts[i + 1] { return t }
    }
    return wall - offsets.last!
  }

  /// The local day (days since 1970-01-01) at an instant.
  func localDay(at t: Int64) -> Int {
    var i = starts.count - 1
    while i > 0 && starts[i] > t { i -= 1 }
    let wall = t + offsets[i]
    return Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
  }

  /// ISO 8601 day-of-week of a day number (1970-01-01 was a Thursday).
  static func isoWeekday(_ day: Int) -> Int { ((day % 7 + 7) % 7 + 3) % 7 + 1 }
}

/// What the oracle knows of one alarm while a config is in force: its
/// definition and, for a one-off, when it was armed and whether it is done.
struct OracleAlarm {
  var alarm: Alarm
  var armedAt: Int64?
  var done = false
}

extension ZoneOracle {
  /// Occurrences of `a` with `lo < at <= hi`, per docs/config.md:
  /// repeat days of the local date, minus `skip` dates; a dated one-off on its
  /// date; a dateless one-off at the first occurrence of its time after it
  /// was armed; nothing once a one-off is done or when disabled.
  func occurrences(of a: OracleAlarm, after lo: Int64, through hi: Int64) -> [Int64] {
    let alarm = a.alarm
    guard alarm.enabled, lo < hi else { return [] }
    let secs = Int64(alarm.time.secondsOfDay)
    func ok(_ day: Int) -> Bool { !alarm.skip.contains(LocalDate(daysSinceEpoch: day)) }
    func at(_ day: Int) -> Int64 { instant(wall: Int64(day) * 86_400 + secs) }
    if !alarm.days.isEmpty {
      var out: [Int64] = []
      for day in (localDay(at: lo) - 2)...(localDay(at: hi) + 1) {
        let weekday = Weekday(rawValue: ZoneOracle.isoWeekday(day))!
        guard alarm.days.contains(weekday), ok(day) else { continue }
        let t = at(day)
        if t > lo && t <= hi && out.last != t { out.append(t) }
      }
      return out
    }
    guard !a.done, let f = oneOffInstant(a) else { return [] }
    return f > lo && f <= hi ? [f] : []
  }

  /// The instant a one-off rings at, if it ever does.
  func oneOffInstant(_ a: OracleAlarm) -> Int64? {
    let alarm = a.alarm
    let secs = Int64(alarm.time.secondsOfDay)
    if let date = alarm.date {
      guard !alarm.skip.contains(date) else { return nil }
      return instant(wall: Int64(date.daysSinceEpoch) * 86_400 + secs)
    }
    guard let armed = a.armedAt else { return nil }
    var day = localDay(at: armed) - 1
    for _ in 0..<400 {
      defer { day += 1 }
      guard !alarm.skip.contains(LocalDate(daysSinceEpoch: day)) else { continue }
      let t = instant(wall: Int64(day) * 86_400 + secs)
      if t > armed { return t }
    }
    return nil
  }
}
