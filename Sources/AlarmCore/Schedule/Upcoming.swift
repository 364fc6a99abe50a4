/// The one answer to "what rings next?": the service (`status`, `next`, its READY line),
/// `alarmclock next` (offline and `--socket`), `list`, the edit commands' "next:" line, the
/// page and `GET /api/next` all ask `UpcomingFiring.list` (or `Upcoming.firings` for the
/// bare firings). Fed with the service's marks (skips, done one-offs) they agree with it.

/// The bare upcoming firings.
public enum Upcoming {
  /// The next `count` firings strictly after `start`, in order; firings at the same
  /// instant are all listed, by alarm id.
  public static func firings(
    _ source: any FiringSource, after start: Instant, count: Int, marks: ScheduleMarks
  ) -> [Firing] {
    // One merge over all alarms, not a search per firing: a flood of `next` with count
    // 100 was answered at a tenth of the rate that way.
    source.upcoming(after: start, limit: count, marks: marks)
  }
}

extension UpcomingFiring {
  /// The next `count` firings after `start` as the protocol, the CLI and the page show
  /// them: each with the occurrences of its alarm skipped since the alarm's previous firing
  /// listed (or `start`). `marks` are the service's (`skip`, done one-offs); `format`
  /// writes an instant in ISO 8601 with its offset.
  public static func list(
    alarms: [String: Alarm], source: any FiringSource, after start: Instant, count: Int,
    marks: ScheduleMarks, format: (Instant) -> String
  ) -> [UpcomingFiring] {
    list(
      Upcoming.firings(source, after: start, count: count, marks: marks), alarms: alarms,
      after: start, format: format
    ) { id, after in
      source.skipped(of: id, after: after, marks: marks, limit: Schedule.skippedLimit)
    }
  }

  /// `list` over a config's alarms: what the offline commands and the web process use.
  public static func list(
    _ alarms: [Alarm], zone: TimeZoneRules, daysOff: DaysOff, after start: Instant, count: Int,
    marks: ScheduleMarks
  ) -> [UpcomingFiring] {
    let schedule = Schedule(alarms: alarms, zone: zone, daysOff: daysOff)
    let firings = Upcoming.firings(schedule, after: start, count: count, marks: marks)
    // Only the alarms that fire are looked up: a dictionary of all of them cost a config
    // of thousands more than the merge.
    let wanted = Set(firings.map(\.alarmID))
    var byID: [String: Alarm] = [:]
    // By index: iterating the alarms copied each one.
    for k in alarms.indices where wanted.contains(alarms[k].id) && byID[alarms[k].id] == nil {
      byID[alarms[k].id] = alarms[k]
    }
    // Found once by id, then by index: a search over all alarms for each listed firing
    // was a fourteenth of `next --count 100` on 10,000 alarms.
    let positions = schedule.indices(of: wanted)
    let format = { (instant: Instant) in ISO8601Text.format(instant, in: zone) }
    return list(firings, alarms: byID, after: start, format: format) { id, after in
      positions[id].map {
        schedule.skipped(at: $0, after: after, marks: marks, limit: Schedule.skippedLimit)
      } ?? []
    }
  }

  /// `skipped(id, after)`: the occurrences of alarm `id` skipped after `after`.
  private static func list(
    _ firings: [Firing], alarms: [String: Alarm], after start: Instant,
    format: (Instant) -> String, skipped: (String, Instant) -> [SkippedOccurrence]
  ) -> [UpcomingFiring] {
    var previous: [String: Instant] = [:]
    return firings.map { f in
      defer { previous[f.alarmID] = f.at }
      let alarm = alarms[f.alarmID]
      return UpcomingFiring(
        id: f.alarmID, label: alarm?.label, at: format(f.at), time: f.time.description,
        sound: alarm?.sound,
        skipped: skipped(f.alarmID, previous[f.alarmID] ?? start))
    }
  }
}
