import TOML

/// An all-day event of an iCalendar file: the dates it may cover, before
/// expansion over a window. Timed and cancelled events never become one.
public struct ICalendarEvent: Hashable, Sendable {
  /// The UID, when the event has one.
  public var uid: String?
  /// The unescaped SUMMARY; `all-day event` when the event has none.
  public var summary: String
  /// DTSTART's date.
  public var start: LocalDate
  /// Days each instance covers (DTEND exclusive, or DURATION); at least 1.
  public var length: Int
  /// The RRULE, when the event repeats.
  public var rule: ICalendarRule?
  /// RDATE dates: extra instance starts.
  public var extraStarts: [LocalDate]
  /// EXDATE dates and RECURRENCE-ID overrides: instance starts that are not.
  public var excludedStarts: Set<LocalDate>
  /// The line of the event's BEGIN:VEVENT.
  public var line: Int
}

/// An iCalendar file (RFC 5545) read for its all-day events: the days a
/// `skip_calendars` file makes skipped days. Pure: the caller reads the bytes.
///
/// Everything the reader does not understand becomes a warning with its line;
/// an event whose dates cannot be read is dropped (never "every day").
public struct ICalendarFile: Sendable {
  /// The all-day events, in file order.
  public var events: [ICalendarEvent]
  /// Problems, in line order, as `line:1: warning: message`.
  public var warnings: [Diagnostic]

  /// At most this many warnings are kept, so a binary file cannot flood a log.
  static let warningCap = 50

  /// Reads `bytes` (UTF-8; CRLF or LF; folded lines; an optional BOM).
  public static func parse(_ bytes: some Collection<UInt8>) -> ICalendarFile {
    var reader = ICalendarReader()
    let unfolded = ContentLineReader.unfold(bytes)
    for (line, range) in unfolded.lines {
      guard let parsed = ContentLineReader.parse(unfolded.bytes, range, line: line) else {
        reader.warn(line, "line has no ':' between a property name and its value, ignored")
        continue
      }
      reader.take(parsed)
    }
    return reader.finish()
  }
}

/// The component walk: a stack of BEGIN names, one event's properties at a time.
private struct ICalendarReader {
  var stack: [(name: String, line: Int)] = []
  var event: EventProperties?
  var calendarIndex = 0
  var entries: [SeriesEntry] = []
  var warnings: [Diagnostic] = []
  var droppedWarnings = 0

  mutating func warn(_ line: Int, _ message: String) {
    guard warnings.count < ICalendarFile.warningCap else {
      droppedWarnings += 1
      return
    }
    warnings.append(
      Diagnostic(.warning, at: SourcePosition(line: line, column: 1, offset: 0), message))
  }

  mutating func take(_ line: ContentLine) {
    switch line.name {
    case "BEGIN":
      let name = line.value  // upper-cased by the line reader
      // Real files nest 3 deep; a cap keeps END's search of the stack cheap.
      guard stack.count < 32 else {
        warn(line.line, "begin:\(name.lowercased()) nested more than 32 deep, ignored")
        return
      }
      if name == "VEVENT" && stack.last?.name != "VALARM" {
        if event != nil { warn(line.line, "begin:vevent inside another vevent") }
        event = EventProperties(line: line.line)
      }
      if name == "VCALENDAR" { calendarIndex += 1 }
      stack.append((name, line.line))
    case "END":
      let name = line.value  // upper-cased by the line reader
      guard let index = stack.lastIndex(where: { $0.name == name }) else {
        warn(line.line, "end:\(name.lowercased()) without a matching begin, ignored")
        return
      }
      for open in stack[(index + 1)...].reversed() {
        warn(
          open.line, "begin:\(open.name.lowercased()) is not ended before end:\(name.lowercased())")
      }
      stack.removeSubrange(index...)
      // An unended VEVENT closed by an outer END still counts (with its warning).
      if event != nil, !stack.contains(where: { $0.name == "VEVENT" }) { endEvent() }
    default:
      guard event != nil, stack.last?.name == "VEVENT" else { return }
      event?.take(line)
    }
  }

  mutating func endEvent() {
    guard let properties = event else { return }
    event = nil
    var problems: [(Int, String)] = []
    let outcome = properties.build(problems: &problems)
    for (line, message) in problems { warn(line, message) }
    entries.append(
      SeriesEntry(
        calendar: calendarIndex, uid: properties.uid, recurrenceID: outcome.replaces,
        sequence: properties.sequence, event: outcome.event))
  }

  mutating func finish() -> ICalendarFile {
    if let open = stack.last(where: { $0.name == "VEVENT" }) {
      warn(open.line, "begin:vevent is not ended at the end of the file")
      endEvent()
    }
    let events = SeriesEntry.resolve(entries)
    warnings.sort { $0.position.line < $1.position.line }
    if droppedWarnings > 0 {
      let position = SourcePosition(line: warnings.last?.position.line ?? 1, column: 1, offset: 0)
      warnings.append(
        Diagnostic(.warning, at: position, "\(droppedWarnings) more warnings not shown"))
    }
    return ICalendarFile(events: events, warnings: warnings)
  }
}
