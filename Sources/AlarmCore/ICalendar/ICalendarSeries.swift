/// Events sharing a UID: the recurring event (the "master") and its
/// RECURRENCE-ID overrides, resolved the way recurring-ical-events does.
struct SeriesEntry {
  /// Which VCALENDAR of the file (UIDs are matched within one).
  var calendar: Int
  var uid: String?
  /// The RECURRENCE-ID's date: the master instance this entry replaces.
  var recurrenceID: LocalDate?
  var sequence: Int
  /// nil for a timed, cancelled or deleted entry (it still counts as a version).
  var event: ICalendarEvent?

  /// The all-day events, in file order:
  /// - of several masters with one UID (programs that append an updated copy),
  ///   the highest SEQUENCE wins, the first on a tie; likewise of several
  ///   overrides of one instance;
  /// - an override takes its instance away from the master, and shows itself
  ///   only if the master has that instance (not one an EXDATE or UNTIL removed);
  ///   an override without a master stands alone.
  static func resolve(_ entries: [SeriesEntry]) -> [ICalendarEvent] {
    var masters: [SeriesKey: Int] = [:]
    var overrides: [SeriesKey: Int] = [:]
    var overriddenDates: [SeriesKey: [LocalDate]] = [:]
    for (index, entry) in entries.enumerated() {
      guard let uid = entry.uid else { continue }
      let key = SeriesKey(calendar: entry.calendar, uid: uid)
      if let date = entry.recurrenceID {
        let overrideKey = SeriesKey(calendar: entry.calendar, uid: uid, instance: date)
        if let best = overrides[overrideKey], entries[best].sequence >= entry.sequence { continue }
        if overrides[overrideKey] == nil { overriddenDates[key, default: []].append(date) }
        overrides[overrideKey] = index
      } else if masters[key].map({ entries[$0].sequence < entry.sequence }) ?? true {
        masters[key] = index
      }
    }
    guard !masters.isEmpty || !overrides.isEmpty else { return entries.compactMap(\.event) }
    var events: [ICalendarEvent] = []
    for (index, entry) in entries.enumerated() {
      guard var event = entry.event else { continue }
      guard let uid = entry.uid else {
        events.append(event)
        continue
      }
      let key = SeriesKey(calendar: entry.calendar, uid: uid)
      if let date = entry.recurrenceID {
        guard overrides[SeriesKey(calendar: entry.calendar, uid: uid, instance: date)] == index
        else { continue }
        if let master = masters[key].flatMap({ entries[$0].event }),
          !master.starts(coveringFrom: date, through: date).contains(date)
        {
          continue
        }
      } else {
        guard masters[key] == index else { continue }
        event.excludedStarts.formUnion(overriddenDates[key] ?? [])
      }
      events.append(event)
    }
    return events
  }
}

/// A series (calendar, UID), or one instance of it.
private struct SeriesKey: Hashable {
  var calendar: Int
  var uid: String
  var instance: LocalDate?
}
