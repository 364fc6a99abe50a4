/// The properties of one VEVENT as read, turned into an all-day event (or
/// nothing) at its END:VEVENT.
struct EventProperties {
  var line: Int
  var uid: String?
  var summary: String?
  var status: String?
  var sequence = 0
  var start: ContentLine?
  var end: ContentLine?
  var duration: ContentLine?
  var recurrenceID: ContentLine?
  var rules: [ContentLine] = []
  var exdates: [ContentLine] = []
  var rdates: [ContentLine] = []

  init(line: Int) { self.line = line }

  mutating func take(_ line: ContentLine) {
    switch line.name {
    case "UID": uid = uid ?? line.value
    case "SUMMARY": summary = summary ?? ICalendarValue.text(line.value)
    case "STATUS": status = line.value.uppercased()
    case "DTSTART": start = start ?? line
    case "DTEND": end = end ?? line
    case "DURATION": duration = duration ?? line
    case "RECURRENCE-ID": recurrenceID = recurrenceID ?? line
    case "SEQUENCE": sequence = Int(line.value) ?? 0
    case "RRULE" where !line.value.isEmpty: rules.append(line)  // CalendarLabs writes `RRULE:`
    case "EXDATE": exdates.append(line)
    case "RDATE": rdates.append(line)
    default: break
    }
  }

  /// What the event contributes: an all-day event, and/or the start of a
  /// master instance it replaces (a RECURRENCE-ID override, even a timed or
  /// cancelled one, takes its instance away).
  struct Outcome {
    var event: ICalendarEvent?
    var replaces: LocalDate?
  }

  func build(problems: inout [(Int, String)]) -> Outcome {
    var outcome = Outcome()
    if let recurrenceID {
      if let value = ICalendarValue.dateOrDateTime(recurrenceID.value) {
        outcome.replaces = value.date
        if recurrenceID.parameter("RANGE") != nil {
          problems.append(
            (
              recurrenceID.line,
              "recurrence-id with range is not supported; only that one instance is replaced"
            ))
        }
      } else {
        problems.append(
          (
            recurrenceID.line,
            "recurrence-id '\(recurrenceID.value)' is not a date; event \(name) dropped"
          ))
        return outcome
      }
    }
    if status == "CANCELLED" { return outcome }
    guard let start else {
      problems.append((line, "event \(name) has no dtstart; dropped"))
      return outcome
    }
    guard let first = date(start, "dtstart", &problems) else { return outcome }
    guard !first.timed else { return outcome }  // a timed event is not a day off
    guard let length = length(from: first.date, &problems) else { return outcome }
    var event = ICalendarEvent(
      uid: uid, summary: summary ?? "all-day event", start: first.date, length: length,
      rule: nil, extraStarts: [], excludedStarts: [], line: line)
    if recurrenceID == nil, let rule = rules.first {
      if rules.count > 1 {
        problems.append(
          (rules[1].line, "event \(name) has more than one rrule; only the first is used"))
      }
      switch ICalendarRule.parse(rule.value) {
      case .success(let parsed):
        // Confluence marks a deleted series with an UNTIL before DTSTART.
        if let until = parsed.until, until < event.start { return outcome }
        event.rule = parsed
      case .failure(let error):
        problems.append((rule.line, "\(error.message); event \(name) dropped"))
        return outcome
      }
    }
    for line in exdates {
      for value in line.value.split(separator: ",") {
        guard let parsed = ICalendarValue.dateOrDateTime(String(value)) else {
          problems.append((line.line, "exdate '\(value)' is not a date, ignored"))
          continue
        }
        event.excludedStarts.insert(parsed.date)
      }
    }
    for line in rdates where recurrenceID == nil {
      guard line.parameter("VALUE")?.uppercased() != "PERIOD" else {
        problems.append((line.line, "rdate with value=period is not supported, ignored"))
        continue
      }
      for value in line.value.split(separator: ",") {
        guard let parsed = ICalendarValue.dateOrDateTime(String(value)), !parsed.timed else {
          problems.append((line.line, "rdate '\(value)' is not a date, ignored"))
          continue
        }
        event.extraStarts.append(parsed.date)
      }
    }
    outcome.event = event
    return outcome
  }

  private func date(
    _ line: ContentLine, _ what: String, _ problems: inout [(Int, String)]
  ) -> (date: LocalDate, timed: Bool)? {
    guard let value = ICalendarValue.dateOrDateTime(line.value),
      !(value.timed && line.parameter("VALUE")?.uppercased() == "DATE")
    else {
      problems.append((line.line, "\(what) '\(line.value)' is not a date; event \(name) dropped"))
      return nil
    }
    return value
  }

  /// Days covered from `start`: DTEND (exclusive), else DURATION, else one.
  private func length(
    from start: LocalDate, _ problems: inout [(Int, String)]
  ) -> Int? {
    if let end {
      guard let value = date(end, "dtend", &problems) else { return nil }
      let days = value.date.daysSinceEpoch - start.daysSinceEpoch
      guard days >= 1 else {
        if days < 0 {
          problems.append((end.line, "dtend is before dtstart; event \(name) counts one day"))
        }
        return 1
      }
      return days
    }
    if let duration {
      guard let days = ICalendarValue.durationDays(duration.value) else {
        problems.append(
          (duration.line, "duration '\(duration.value)' is not understood; event \(name) dropped"))
        return nil
      }
      return max(days, 1)
    }
    return 1
  }

  /// The event in a message: `'Christmas Day'`, or `at line 12` without a SUMMARY
  /// (built only for a warning).
  private var name: String { summary.map { "'\($0)'" } ?? "at line \(line)" }
}
