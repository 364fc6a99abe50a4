/// One entry of an alarm's `skip` list as the editor writes it: a day, or an inclusive
/// range of days (a vacation).
public enum SkipEntry: Hashable, Sendable, Comparable, CustomStringConvertible {
  case day(LocalDate)
  case range(DateRange)

  /// The alarm's `skip` list: its days and ranges, by first day.
  public static func entries(of alarm: Alarm) -> [SkipEntry] {
    (alarm.skip.map(SkipEntry.day) + alarm.skipRanges.map(SkipEntry.range)).sorted()
  }

  /// `2027-12-24` or `2027-07-19..2027-07-30`, as `next` prints a range and `--skip` and
  /// the page take one.
  public var description: String {
    switch self {
    case .day(let d): return d.description
    case .range(let r): return r.description
    }
  }

  /// `2027-12-24` or `{ from = 2027-07-19, to = 2027-07-30 }`.
  public var toml: String {
    switch self {
    case .day(let d): return d.description
    case .range(let r): return "{ from = \(r.from), to = \(r.to) }"
    }
  }

  /// By first day, a day before a range that starts on it.
  public static func < (a: SkipEntry, b: SkipEntry) -> Bool {
    func key(_ e: SkipEntry) -> (LocalDate, LocalDate, Int) {
      switch e {
      case .day(let d): return (d, d, 0)
      case .range(let r): return (r.from, r.to, 1)
      }
    }
    let (x, y) = (key(a), key(b))
    if x.0 != y.0 { return x.0 < y.0 }
    if x.2 != y.2 { return x.2 < y.2 }
    return x.1 < y.1
  }

  /// Whether `alarm`'s `skip` already lists it.
  func isListed(in alarm: Alarm) -> Bool {
    switch self {
    case .day(let d): return alarm.skip.contains(d)
    case .range(let r): return alarm.skipRanges.contains(r)
    }
  }
}

extension AlarmValueText {
  /// `2027-12-24`, or `2027-07-19..2027-07-30` (both ends included, in order).
  public static func skipEntry(_ text: String) -> Result<SkipEntry, AlarmValueError> {
    let expectation = "a date like 2027-12-24 or a range like 2027-07-19..2027-07-30"
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count == 3, parts[1].isEmpty {
      guard let from = LocalDate(iso: String(parts[0])), let to = LocalDate(iso: String(parts[2]))
      else { return .failure(AlarmValueError("\(expectation), not \(quoted(text))")) }
      guard from <= to else {
        return .failure(AlarmValueError("a range that ends after it starts, not \(quoted(text))"))
      }
      return .success(from == to ? .day(from) : .range(DateRange(from: from, to: to)))
    }
    guard let day = LocalDate(iso: text) else {
      return .failure(AlarmValueError("\(expectation) (days that exist), not \(quoted(text))"))
    }
    return .success(.day(day))
  }

  /// A whole `skip` list: entries separated by commas, blanks or line breaks (a list
  /// nobody wants repeated: the same entry twice is kept once). Empty text: no entry.
  public static func skipList(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    var entries: [SkipEntry] = []
    for word in text.split(whereSeparator: { $0 == "," || $0.isWhitespace || $0.isNewline }) {
      switch skipEntry(String(word)) {
      case .success(let e): if !entries.contains(e) { entries.append(e) }
      case .failure(let e): return .failure(e)
      }
    }
    return .success(.skips(entries.sorted()))
  }

  /// `skip_calendars` paths, one per line (a path may hold commas and blanks); the line
  /// `none` alone is the empty list (no calendar, also when `[defaults]` has some).
  public static func pathList(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    let lines = text.split(whereSeparator: \.isNewline).map {
      String($0.trimmingWhitespace)
    }.filter { !$0.isEmpty }
    if lines == ["none"] { return .success(.strings([])) }
    var paths: [String] = []
    for line in lines where !paths.contains(line) {
      guard line.utf8.count <= TableReader.maxPathBytes, !line.contains("\0") else {
        return .failure(
          AlarmValueError(
            "paths of iCalendar files of at most \(TableReader.maxPathBytes) bytes, one per line"))
      }
      paths.append(line)
    }
    return .success(.strings(paths))
  }
}
