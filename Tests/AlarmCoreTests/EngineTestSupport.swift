import AlarmCore

/// A small firing source for the engine tests: alarms at wall times in UTC,
/// honouring repeat days, `skip` dates, skip-next marks and one-off marks the
/// way the real schedule does (a one-off without date rings at the first
/// occurrence of its time after it was armed, and not once done).
struct UTCFirings: FiringSource {
  var alarms: [Alarm]

  func firings(after: Instant, through: Instant, marks: ScheduleMarks) -> [Firing] {
    guard after < through else { return [] }
    var out: [Firing] = []
    let firstDay = Int(after.seconds / 86_400) - 1
    let lastDay = Int(through.seconds / 86_400) + 1
    for alarm in alarms where alarm.enabled {
      let oneOffFirst = alarm.isOneOff ? oneOffFiring(alarm, marks: marks) : nil
      if alarm.isOneOff {
        if let f = oneOffFirst, f.at > after, f.at <= through { out.append(f) }
        continue
      }
      for day in firstDay...lastDay {
        let date = LocalDate(daysSinceEpoch: day)
        guard alarm.days.contains(date.weekday), !alarm.skip.contains(date),
          marks.skipNext[alarm.id] != date
        else { continue }
        let at = Instant(seconds: Int64(day) * 86_400 + Int64(alarm.time.secondsOfDay))
        if at > after, at <= through {
          out.append(Firing(alarmID: alarm.id, at: at, date: date, time: alarm.time))
        }
      }
    }
    return out.sorted { ($0.at, $0.alarmID) < ($1.at, $1.alarmID) }
  }

  func next(after instant: Instant, marks: ScheduleMarks) -> Firing? {
    firings(after: instant, through: instant + .seconds(8 * 86_400), marks: marks).first
      ?? alarms.compactMap { a in a.isOneOff ? oneOffFiring(a, marks: marks) : nil }
      .filter { $0.at > instant }.min { $0.at < $1.at }
  }

  /// One alarm's next firing, directly, as the real schedule finds it (the
  /// protocol's default walks every firing in between).
  func next(of alarmID: String, after instant: Instant, marks: ScheduleMarks) -> Firing? {
    guard let a = alarms.first(where: { $0.id == alarmID }), a.enabled else { return nil }
    if a.isOneOff { return oneOffFiring(a, marks: marks).flatMap { $0.at > instant ? $0 : nil } }
    return UTCFirings(alarms: [a]).next(after: instant, marks: marks)
  }

  private func oneOffFiring(_ alarm: Alarm, marks: ScheduleMarks) -> Firing? {
    guard let mark = marks.oneOffs[alarm.id], mark.doneAt == nil else { return nil }
    let tod = Int64(alarm.time.secondsOfDay)
    let day: Int64
    if let date = alarm.date {
      day = Int64(date.daysSinceEpoch)
    } else {
      let armedDay = mark.armedAt.seconds / 86_400
      day = armedDay * 86_400 + tod > mark.armedAt.seconds ? armedDay : armedDay + 1
    }
    let date = LocalDate(daysSinceEpoch: Int(day))
    return Firing(
      alarmID: alarm.id, at: Instant(seconds: day * 86_400 + tod), date: date, time: alarm.time)
  }
}

/// 2026-12-02 (a Wednesday) at the given UTC wall time.
func at(_ h: Int, _ m: Int, _ s: Int = 0, day: Int = 0) -> Instant {
  let d = Int64(LocalDate(year: 2026, month: 12, day: 2).daysSinceEpoch + day)
  return Instant(seconds: d * 86_400 + Int64(h * 3600 + m * 60 + s))
}

func alarm(
  _ id: String, _ h: Int, _ m: Int, days: DaySet = .daily, date: LocalDate? = nil,
  snooze: Duration? = .seconds(540), ringFor: Duration = .seconds(600), enabled: Bool = true
) -> Alarm {
  var defaults = AlarmDefaults()
  defaults.snooze = snooze
  defaults.ringFor = ringFor
  return Alarm(
    id: id, time: LocalTime(hour: h, minute: m), days: days, date: date,
    label: id.prefix(1).uppercased() + id.dropFirst(),
    defaults: defaults, enabled: enabled)
}

func makeEngine(
  _ alarms: [Alarm], state: ServiceState = ServiceState(), options: EngineOptions = EngineOptions()
) -> AlarmEngine {
  AlarmEngine(alarms: alarms, source: UTCFirings(alarms: alarms), state: state, options: options)
}

extension [EngineAction] {
  /// The sound actions, as (alarm id or "stop", remaining seconds, resumed).
  var sound: [String] {
    compactMap {
      switch $0 {
      case .startSound(let a, let remaining, let resumed):
        return "start \(a.id) \(remaining.components.seconds)s\(resumed ? " resumed" : "")"
      case .stopSound: return "stop"
      default: return nil
      }
    }
  }

  var hooks: [String] {
    compactMap {
      if case .hook(let h) = $0 { return "\(h.event.rawValue) \(h.alarmID)" }
      return nil
    }
  }

  var saves: Bool { contains(.saveState) }
}

extension ServiceState {
  var kinds: [String] { history.map { "\($0.kind.rawValue) \($0.alarmID)" } }
}
