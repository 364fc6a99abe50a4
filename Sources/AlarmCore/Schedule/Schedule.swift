/// The schedule: a pure function from (alarms, zone, marks, instant) to the
/// upcoming firings, in order. Each alarm's next occurrence is computed once
/// and the alarms are merged through a binary heap, so asking for the next
/// 100 firings of 10,000 alarms costs about 10,100 occurrence look-ups.

/// The firings of a set of alarms in one time zone.
///
/// - Repeating alarms ring on each of their weekdays (of the local date) at
///   their wall time, except on `skip` dates and ranges, on the days off of their
///   `skip_calendars` (`daysOff`) and on `marks.skipNext[id]`. However many days are
///   skipped, the search goes on until a day rings (it never gives up silently), up to
///   `DaysOff.searchDays` of calendar days off in a row (then the alarm does not ring).
/// - A one-off with `date` rings once, then never again once its mark is done.
/// - A one-off without `date` rings at the first occurrence of its time
///   strictly after it was armed (`marks.oneOffs[id].armedAt`; without a
///   matching mark, at the query's `after`), skipping `skip` dates and the
///   skip-next date, and never again once done.
/// - A mark whose fingerprint does not match the alarm (its time or date was
///   edited) is ignored: the alarm is armed afresh.
/// - Wall times map to instants by RFC 5545 (gap: offset before it; overlap:
///   first occurrence). Two local dates mapping to the same instant (a zone
///   skipping a whole day) ring once, reported with the earlier date.
/// - `days` wins over `date` when an alarm has both (the config rejects that).
public struct Schedule: FiringSource {
  /// The enabled alarms; disabled ones never fire.
  public let alarms: [Alarm]
  public let zone: TimeZoneRules
  /// The calendars' days off (`skip_calendars`).
  public let daysOff: DaysOff

  public init(alarms: [Alarm], zone: TimeZoneRules, daysOff: DaysOff = DaysOff()) {
    // The array itself when every alarm is enabled (the usual case): filtering copied
    // all of them, 10,000 alarms of 300 bytes for `next` on a large config.
    let allEnabled = alarms.indices.allSatisfy { alarms[$0].enabled }
    self.alarms = allEnabled ? alarms : alarms.filter(\.enabled)
    self.zone = zone
    self.daysOff = daysOff
  }

  /// Every firing with `after < at <= through`, ordered by `at`, then alarm id.
  public func firings(after: Instant, through: Instant, marks: ScheduleMarks) -> [Firing] {
    guard after < through else { return [] }
    return merge(after: after, marks: marks) { firing, _ in firing.at <= through }
  }

  /// The first firing strictly after `instant`.
  public func next(after instant: Instant, marks: ScheduleMarks) -> Firing? {
    var context = Context(zone: zone, daysOff: daysOff, after: instant, marks: marks)
    var best: Firing?
    for alarm in alarms {
      guard let f = context.occurrence(of: alarm, after: instant) else { continue }
      if best.map({ Schedule.precedes(f, $0) }) ?? true { best = f }
    }
    return best
  }

  /// The next `limit` firings strictly after `after`, in order.
  public func upcoming(after: Instant, limit: Int, marks: ScheduleMarks) -> [Firing] {
    guard limit > 0 else { return [] }
    return merge(after: after, marks: marks) { _, count in count < limit }
  }

  /// The next firing of one alarm strictly after `after`; nil if it is
  /// unknown, disabled, or will not ring again.
  public func next(of alarmID: String, after: Instant, marks: ScheduleMarks) -> Firing? {
    guard let alarm = alarms.first(where: { $0.id == alarmID }) else { return nil }
    var context = Context(zone: zone, daysOff: daysOff, after: after, marks: marks)
    return context.occurrence(of: alarm, after: after)
  }

  /// How many skipped occurrences `skipped(of:...)` returns by default.
  public static let skippedLimit = 60

  /// The occurrences of one alarm after `after` that are skipped before its next firing
  /// (at most `limit`, earliest first), each with why.
  public func skipped(
    of alarmID: String, after: Instant, marks: ScheduleMarks, limit: Int = skippedLimit
  ) -> [SkippedOccurrence] {
    // By index, comparing each id in place: `first(where:)` copied every alarm it passed
    // (about 300 bytes), and `next --count 100` asks this once per firing, over 10,000
    // alarms of a large config (a seventh of its instructions).
    guard let index = alarms.indices.first(where: { alarms[$0].id == alarmID }) else {
      return []
    }
    return skipped(at: index, after: after, marks: marks, limit: limit)
  }

  /// `skipped(of:...)` of the alarm at `index` in `alarms`.
  public func skipped(
    at index: Int, after: Instant, marks: ScheduleMarks, limit: Int = skippedLimit
  ) -> [SkippedOccurrence] {
    var context = Context(zone: zone, daysOff: daysOff, after: after, marks: marks)
    context.collectLimit = limit
    _ = context.occurrence(of: alarms[index], after: after)
    return context.collected
  }

  /// The index in `alarms` of the first alarm of each of `ids` that has one: one pass for
  /// a listing's firings instead of a search by id for each.
  public func indices(of ids: Set<String>) -> [String: Int] {
    var out: [String: Int] = [:]
    for k in alarms.indices where ids.contains(alarms[k].id) && out[alarms[k].id] == nil {
      out[alarms[k].id] = k
    }
    return out
  }

  // MARK: - Merging

  static func precedes(_ a: Firing, _ b: Firing) -> Bool {
    a.at != b.at ? a.at < b.at : a.alarmID < b.alarmID
  }

  /// Pops firings in order while `keep(firing, countSoFar)` holds.
  private func merge(
    after: Instant, marks: ScheduleMarks, while keep: (Firing, Int) -> Bool
  ) -> [Firing] {
    var context = Context(zone: zone, daysOff: daysOff, after: after, marks: marks)
    var heap = FiringHeap()
    heap.reserve(alarms.count)
    for index in alarms.indices {
      if let f = context.occurrence(of: alarms[index], after: after) {
        heap.push(.init(firing: f, index: index))
      }
    }
    var out: [Firing] = []
    while let top = heap.top, keep(top.firing, out.count) {
      out.append(top.firing)
      let alarm = alarms[top.index]
      if !alarm.isOneOff, let f = context.occurrence(of: alarm, after: top.firing.at) {
        heap.replaceTop(.init(firing: f, index: top.index))
      } else {
        heap.popTop()
      }
    }
    return out
  }
}

/// Per-query state: the marks, the query instant (which arms unmarked
/// one-offs) and a cache of day maps, since many alarms share the same days.
private struct Context {
  let zone: TimeZoneRules
  let daysOff: DaysOff
  let after: Instant
  let marks: ScheduleMarks
  var days: [Int: DayMap] = [:]
  var localDates: [Instant: LocalDate] = [:]
  /// With a limit, skipped occurrences are collected (for `next` and `list`).
  var collectLimit = 0
  var collected: [SkippedOccurrence] = []

  init(zone: TimeZoneRules, daysOff: DaysOff, after: Instant, marks: ScheduleMarks) {
    self.zone = zone
    self.daysOff = daysOff
    self.after = after
    self.marks = marks
  }

  mutating func instant(_ date: LocalDate, _ time: LocalTime) -> Instant {
    let key = date.daysSinceEpoch
    if let map = days[key] { return map.instant(for: time) }
    let map = zone.dayMap(for: date)
    days[key] = map
    return map.instant(for: time)
  }

  mutating func localDate(_ instant: Instant) -> LocalDate {
    if let d = localDates[instant] { return d }
    let d = zone.local(at: instant).date
    localDates[instant] = d
    return d
  }

  /// The alarm's first firing strictly after `t`.
  mutating func occurrence(of alarm: Alarm, after t: Instant) -> Firing? {
    guard alarm.enabled else { return nil }
    let skipNext = marks.skipNext[alarm.id]
    if !alarm.isOneOff {
      return first(of: alarm, after: t, skipNext: skipNext) { alarm.days.contains($0.weekday) }
    }
    let mark = marks.oneOffs[alarm.id].flatMap {
      $0.fingerprint == OneOffMark.fingerprint(of: alarm) ? $0 : nil
    }
    if mark?.doneAt != nil { return nil }
    if let date = alarm.date {
      let at = instant(date, alarm.time)
      guard at > t else { return nil }
      if let reason = skipReason(alarm, date, skipNext: skipNext) {
        collect(date, reason)
        return nil
      }
      return Firing(alarmID: alarm.id, at: at, date: date, time: alarm.time)
    }
    let armed = mark?.armedAt ?? after
    guard let f = first(of: alarm, after: armed, skipNext: skipNext, on: { _ in true }),
      f.at > t
    else { return nil }
    return f
  }

  /// Why `alarm` does not ring on `date`, or nil when it does.
  func skipReason(_ alarm: Alarm, _ date: LocalDate, skipNext: LocalDate?) -> SkipReason? {
    if date == skipNext { return .once }
    if alarm.skip.contains(date) { return .date }
    if let range = alarm.skipRanges.first(where: { $0.contains(date) }) { return .range(range) }
    if !alarm.skipCalendars.isEmpty,
      let reason = daysOff.reason(on: date, calendars: alarm.skipCalendars)
    {
      return .calendar(reason)
    }
    return nil
  }

  private mutating func collect(_ date: LocalDate, _ reason: SkipReason) {
    if collected.count < collectLimit {
      collected.append(SkippedOccurrence(date: date, reason: reason))
    }
  }

  /// The first day's occurrence strictly after `t` on a day `on` accepts.
  private mutating func first(
    of alarm: Alarm, after t: Instant, skipNext: LocalDate?, on accepts: (LocalDate) -> Bool
  ) -> Firing? {
    // A day earlier: an earlier date's wall time can map past `t` (overlaps,
    // zones that skip a day).
    var date = localDate(t).adding(days: -1)
    let firstDay = date.daysSinceEpoch
    // 23 days hold at least three occurrences; each skipped one removes at most one
    // occurrence, and the 7 days it adds hold another. So the search ends only at a day
    // that rings: a calendar or range covering every day pushes the firing past its end,
    // never makes the alarm silently never ring.
    var daysLeft = 7 * 3 + 2
    while daysLeft > 0, date.year <= 9999 {
      defer {
        date = date.adding(days: 1)
        daysLeft -= 1
      }
      guard accepts(date) else { continue }
      if let reason = skipReason(alarm, date, skipNext: skipNext) {
        // A calendar is expanded day by day past its table: one covering every day for
        // years means the alarm does not ring (`check` warns at a year), not a firing on a
        // day off.
        if case .calendar = reason, date.daysSinceEpoch - firstDay > DaysOff.searchDays {
          return nil
        }
        daysLeft += 7
        // No day map for the skipped days of a long vacation but the first two.
        if date.daysSinceEpoch > firstDay + 2 || instant(date, alarm.time) > t {
          collect(date, reason)
        }
        // Past a range in one step once nothing more is collected: a range to 9999
        // costs one step, not millions.
        if case .range(let range) = reason, collected.count >= collectLimit, range.to > date {
          date = range.to
        }
        continue
      }
      let at = instant(date, alarm.time)
      guard at > t else { continue }
      return Firing(alarmID: alarm.id, at: at, date: date, time: alarm.time)
    }
    return nil
  }
}
