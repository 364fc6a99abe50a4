/// Which reminders matter when: the ones read after the morning stop, and the next due
/// time that chimes. Pure: today and the zone are given.
public enum ReminderAgenda {
  /// The open reminders due today or before (overdue), in list order: what is read out
  /// after the morning alarm is stopped.
  public static func today(_ list: ReminderList, today: LocalDate) -> [Reminder] {
    list.reminders.filter { r in
      guard !r.done, let due = r.due else { return false }
      return due.date <= today
    }
  }

  /// The next open reminder with a due time strictly after `after`, and the instant it is
  /// due (RFC 5545 rules in `zone`: a time in a DST gap is due after the gap, a time that
  /// occurs twice at its first occurrence). Ties go to the earlier in the list. Reminders
  /// `excluding` names are passed over (the service's: due times already said).
  public static func nextDue(
    _ list: ReminderList, after: Instant, zone: TimeZoneRules,
    excluding: (Reminder) -> Bool = { _ in false }
  ) -> (reminder: Reminder, at: Instant)? {
    var best: (reminder: Reminder, at: Instant)?
    for r in list.reminders where !r.done && !excluding(r) {
      guard let due = r.due, due.time != nil else { continue }
      let at = due.instant(in: zone)
      guard at > after else { continue }
      if best == nil || at < best!.at { best = (r, at) }
    }
    return best
  }
}
