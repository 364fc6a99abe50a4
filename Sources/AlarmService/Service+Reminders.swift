import AlarmCore
import AlarmPlatform

/// The reminder list: watched like the config, its due times on the alarm timer, said
/// after a chime (outside `[voice] quiet_hours`, never over a ring), a press then marks the
/// reminder done; and today's reminders read after an announcing alarm is stopped.
extension Service {
  func startWatchingReminders() {
    do throws(SystemError) {
      let w = try FileWatch(path: reminders.path)
      try loop.register(w.descriptor, interest: .readable) { [unowned self] _ in
        guard let changes = try? w.read() else { return }
        if changes.contains(.directoryGone) { _ = try? w.rewatch() }
        guard !changes.isEmpty else { return }
        self.reloadReminders(reason: "file changed")
      }
      reminderWatch = w
    } catch {
      log.warning("cannot watch \(reminders.path) for changes (\(error)); use SIGHUP")
    }
  }

  /// Reads the list again: a good one is in force at once, a broken one is logged.
  func reloadReminders(reason: String) {
    switch reminders.reload() {
    case .unchanged: return
    case .rejected(let errors):
      for e in errors { log.error(e) }
      log.error("reminders rejected (\(reason)); the last good list stays in force")
    case .applied(let n):
      log.notice("reminders applied (\(reason)): \(n) reminder\(n == 1 ? "" : "s")")
      rearm(now: clock.now())
    }
  }

  /// The timer woke at (or after) a due time: the reminders due now are said, or wait
  /// for the ring to end.
  func remindersReached(now: Instant) {
    let due = reminders.takeDue(now: now, zone: zone)
    guard !due.isEmpty else { return }
    let local = zone.local(at: now)
    for r in due {
      log.notice("reminder '\(r.id)' is due: \(r.title)")
      if let quiet = config.voice.quietHours, quiet.contains(local.time) {
        log.info("reminder '\(r.id)': quiet hours (\(quiet)), not said")
      } else {
        reminderQueue.append(r)
      }
    }
    sayQueuedReminders()
  }

  /// Says the next queued reminder when nothing rings or speaks; the rest follow.
  func sayQueuedReminders() {
    guard !reminderQueue.isEmpty else { return }
    guard engine.state.session == nil, ring.prepared == nil else {
      log.info("reminders: \(reminderQueue.count) to say after the ring")
      return
    }
    guard !speech.isBusy else { return }  // said when the utterance ends
    let r = reminderQueue.removeFirst()
    let now = clock.now()
    let said = say(
      SpokenText(voiceLocale).reminderDue(r.title), chime: true,
      then: { [unowned self] in self.sayQueuedReminders() })
    if said { reminders.wasSaid(r, now: now) }
  }

  /// A press while idle within the window after a reminder was said: it is done.
  /// False when no reminder waits for a press.
  func pressMarksReminderDone(now: Instant, source: String) -> Bool {
    guard let r = reminders.takeAwaitingPress(now: now) else { return false }
    if let why = reminders.markDone(r.id) {
      log.warning("\(source): press: cannot mark reminder '\(r.id)' done: \(why)")
      return true
    }
    log.notice("\(source): press: reminder '\(r.id)' marked done")
    reloadReminders(reason: "marked done")
    say(SpokenText(voiceLocale).reminderDone(r.title))
    return true
  }

  /// After a user's stop of an alarm with `announce`: today's open reminders, read out.
  func readTodaysReminders(after alarmID: String, now: Instant) {
    guard engine.alarms[alarmID]?.announce == true else { return }
    let titles = ReminderAgenda.today(reminders.list, today: zone.local(at: now).date)
      .map(\.title)
    guard let text = SpokenText(voiceLocale).todaysReminders(titles) else {
      log.info("stop of '\(alarmID)': no reminder for today")
      return
    }
    say(text, then: { [unowned self] in self.sayQueuedReminders() })
  }
}
