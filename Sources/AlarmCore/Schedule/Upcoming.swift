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
      source: source, after: start, marks: marks, format: format)
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
    return list(
      firings, alarms: byID, source: schedule, after: start, marks: marks,
      format: { ISO8601Text.format($0, in: zone) })
  }

  private static func list(
    _ firings: [Firing], alarms: [String: Alarm], source: any FiringSource,
    after start: Instant, marks: ScheduleMarks, format: (Instant) -> String
  ) -> [UpcomingFiring] {
    var previous: [String: Instant] = [:]
    return firings.map { f in
      defer { previous[f.alarmID] = f.at }
      let alarm = alarms[f.alarmID]
      return UpcomingFiring(
        id: f.alarmID, label: alarm?.label, at: format(f.at), time: f.time.description,
        sound: alarm?.sound,
        skipped: source.skipped(
          of: f.alarmID, after: previous[f.alarmID] ?? start, marks: marks,
          limit: Schedule.skippedLimit))
    }
  }
}
