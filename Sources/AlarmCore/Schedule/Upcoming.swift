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
    var previous: [String: Instant] = [:]
    return Upcoming.firings(source, after: start, count: count, marks: marks).map { f in
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

  /// `list` over a config's alarms: what the offline commands and the web process use.
  public static func list(
    _ alarms: [Alarm], zone: TimeZoneRules, daysOff: DaysOff, after start: Instant, count: Int,
    marks: ScheduleMarks
  ) -> [UpcomingFiring] {
    list(
      alarms: Dictionary(alarms.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
      source: Schedule(alarms: alarms, zone: zone, daysOff: daysOff), after: start,
      count: count, marks: marks, format: { ISO8601Text.format($0, in: zone) })
  }
}
