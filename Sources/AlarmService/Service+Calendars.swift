import AlarmCore
import AlarmPlatform

/// The `skip_calendars` files: read again when they change, the days-off window renewed.
extension Service {
  /// The schedule of `config`'s alarms with the calendars' days off.
  func schedule(_ config: Config, zone: TimeZoneRules) -> Schedule {
    Schedule(alarms: config.alarms, zone: zone, daysOff: calendars.daysOff)
  }

  func startCalendars() {
    calendars.changed = { [unowned self] reread in self.calendarsChanged(reread: reread) }
    calendars.start(loop: loop)
  }

  /// A calendar file changed (`reread`), or the hourly check of the window is due.
  func calendarsChanged(reread: Bool) {
    let now = clock.now()
    let today = zone.local(at: now).date
    let changed = reread ? calendars.reread(today: today) : calendars.renewIfStale(today: today)
    guard changed else { return }
    settle(
      engine.reload(alarms: config.alarms, source: schedule(config, zone: zone), now: now),
      now: now, invalidate: true)
    try? notify?.status(readyStatus())
  }
}
