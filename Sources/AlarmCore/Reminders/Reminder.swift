import TOML

/// One item of the reminder list (the seeds' 提醒清單): a title, optional notes, an optional
/// due day or local date and time, a done tick and an optional photo. Its place in the list
/// is its place in the file.
public struct Reminder: Hashable, Sendable {
  public var id: String
  public var title: String
  public var notes: String?
  public var due: ReminderDue?
  public var done: Bool
  /// A file name in the list's photo directory (`ReminderList.photoDirectory`).
  public var photo: String?

  public init(
    id: String, title: String, notes: String? = nil, due: ReminderDue? = nil, done: Bool = false,
    photo: String? = nil
  ) {
    self.id = id
    self.title = title
    self.notes = notes
    self.due = due
    self.done = done
    self.photo = photo
  }

  /// Why `title` cannot be a reminder's title ("is empty", "must be one line", ...), or nil.
  public static func titleProblem(_ title: String) -> String? {
    if title.trimmingWhitespace.isEmpty { return "is empty" }
    return AlarmDecoder.labelProblem(title)
  }

  /// The longest title accepted, in UTF-8 bytes (a title is spoken and shown on one line).
  public static let maxTitleBytes = Alarm.maxLabelBytes
  /// The longest notes accepted, in UTF-8 bytes.
  public static let maxNotesBytes = 4096
  /// The most reminders one list may hold.
  public static let maxCount = 1000
}

/// When a reminder is due: some time on a day, or at a local date and time (in the
/// config's time zone, so it follows the clock across a DST change as an alarm does).
public enum ReminderDue: Hashable, Sendable, Comparable, CustomStringConvertible {
  case day(LocalDate)
  case time(LocalDate, LocalTime)

  public var date: LocalDate {
    switch self {
    case .day(let d), .time(let d, _): return d
    }
  }

  /// The time of day, for a due time.
  public var time: LocalTime? {
    if case .time(_, let t) = self { return t }
    return nil
  }

  /// Days sort before the times of the same day.
  public static func < (a: ReminderDue, b: ReminderDue) -> Bool {
    (a.date, a.time?.secondsOfDay ?? -1) < (b.date, b.time?.secondsOfDay ?? -1)
  }

  /// `2026-12-04` or `2026-12-04T07:30:00`: ISO 8601, as the file, `--due` and the API
  /// write it.
  public var description: String {
    switch self {
    case .day(let d): return d.description
    case .time(let d, let t):
      return "\(d)T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))"
    }
  }

  /// The value as TOML writes it: a bare local date or local date-time.
  public var toml: String { description }

  /// The instant it is due in `zone`: a due time by the RFC 5545 rules alarms follow (a
  /// time in a DST gap is taken with the offset before the gap, one that occurs twice at
  /// its first occurrence); a day at its start.
  public func instant(in zone: TimeZoneRules) -> Instant {
    zone.instant(for: date, time ?? LocalTime(hour: 0, minute: 0))
  }

  /// What `--due` and the API take: a date (`2026-12-04`) or a local date and time
  /// (`2026-12-04T07:30`, seconds allowed; `T` or a space between). Anything else gets
  /// the reason it was refused, worded to follow the name of what was given (`'due' ...`,
  /// `--due ...`).
  public static func parse(_ text: String) -> Result<ReminderDue, ReminderValueError> {
    let chars = Array(text.utf8)
    guard chars.count >= 10,
      let date = LocalDate(iso: String(decoding: chars[0..<10], as: UTF8.self))
    else {
      let parts = text.split(separator: "-")
      if parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
        return .failure(ReminderValueError("\(text) does not exist"))
      }
      return .failure(shape(text))
    }
    if chars.count == 10 { return .success(.day(date)) }
    guard chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " ") else {
      return .failure(shape(text))
    }
    let rest = String(decoding: chars[11...], as: UTF8.self)
    if rest.contains(where: { $0 == "+" || $0 == "Z" || $0 == "z" })
      || rest.dropFirst(5).contains("-")
    {
      return .failure(
        ReminderValueError(
          "is local to the device: write it without an offset, like 2026-12-04T07:30"))
    }
    guard let time = LocalTime(text: rest) else { return .failure(shape(text)) }
    return .success(.time(date, time))
  }

  private static func shape(_ text: String) -> ReminderValueError {
    ReminderValueError("must be \(expected), not \(quoted(TOMLFormat.excerpt(text)))")
  }

  static let expected = "a date like 2026-12-04 or a local date and time like 2026-12-04T07:30"
}

/// Why a reminder's value was refused, worded to follow the name of what was given.
public struct ReminderValueError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
