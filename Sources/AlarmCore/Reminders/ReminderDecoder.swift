import TOML

/// Decodes a reminder list file: `[[reminder]]` tables with `id`, `title`, `notes`, `due`,
/// `done` and `photo`. Every problem is reported with its `line:col` in one pass, as for
/// the config.
public enum ReminderDecoder {
  /// The keys of a `[[reminder]]` table, in the order the editor writes them.
  public static let keys = ["id", "title", "due", "notes", "done", "photo"]

  public static func decode(_ text: String, path: String) -> ReminderListResult {
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(text)
    } catch {
      return ReminderListResult(
        path: path, list: nil,
        diagnostics: [Diagnostic(.error, at: error.position, error.message)])
    }
    return decode(document, path: path)
  }

  public static func decode(_ document: TOMLDocument, path: String) -> ReminderListResult {
    let state = DecodeState()
    let root = TableReader(
      document.root, section: "", anchor: SourcePosition(line: 1, column: 1, offset: 0),
      known: ["reminder"], state: state)
    var list = ReminderList()
    var explicit: [String: SourcePosition] = [:]
    var derivedAt: [Int] = []
    for (reader, source) in tables(root, document: document) {
      guard list.reminders.count < Reminder.maxCount else {
        state.error(
          reader.anchor,
          "too many reminders: at most \(Reminder.maxCount) are allowed in one list")
        break
      }
      // A written id is taken even when its reminder has other errors.
      var duplicate = false
      if let entry = reader.table.entry("id"), case .string(let id) = entry.node.value,
        AlarmID.isValid(id)
      {
        if let first = explicit[id] {
          state.error(
            entry.node.range.start,
            "id '\(id)' is already used by the reminder at line \(first.line)")
          duplicate = true
        } else {
          explicit[id] = reader.anchor
        }
      }
      guard let (reminder, idPosition) = self.reminder(reader), !duplicate else { continue }
      if idPosition == nil { derivedAt.append(list.reminders.count) }
      list.reminders.append(reminder)
      list.sources.append(source)
    }
    // Derived ids after every written one is taken, so writing an id never renames another.
    var taken = Set(explicit.keys)
    let derived = AlarmID.derive(
      bases: derivedAt.map { baseID(title: list.reminders[$0].title) }, taken: &taken)
    for (k, i) in derivedAt.enumerated() { list.reminders[i].id = derived[k] }
    let diagnostics = state.diagnostics.sorted { $0.position < $1.position }
    return ReminderListResult(
      path: path, list: state.errorCount == 0 ? list : nil, diagnostics: diagnostics)
  }

  /// The id a reminder without one gets: its title's slug, or `reminder` (and never the
  /// reserved `new`).
  public static func baseID(title: String) -> String {
    let slug = AlarmID.slug(title)
    if slug == reservedID { return "new-reminder" }
    return slug.isEmpty ? "reminder" : slug
  }

  /// `/reminders/new` is the page's add form, so no reminder may be called `new`.
  public static let reservedID = "new"

  private static func tables(_ root: TableReader, document: TOMLDocument)
    -> [(TableReader, ReminderSource)]
  {
    guard let entry = root.entry("reminder") else { return [] }
    guard case .array(let array) = entry.node.value else {
      root.mismatch(
        entry, "an array of tables",
        actual: "\(entry.node.value.kindDescription) (write [[reminder]])")
      return []
    }
    var headerIndex: [Int: Int] = [:]
    for (i, header) in document.headers.enumerated() { headerIndex[header.range.start.offset] = i }
    var out: [(TableReader, ReminderSource)] = []
    for element in array.elements {
      guard case .table(let table) = element.value else {
        root.state.error(
          element.range.start,
          "'reminder' entries must be tables ([[reminder]]), not \(element.value.kindDescription)")
        continue
      }
      let reader = TableReader(
        table, section: "[[reminder]]", anchor: table.headerRange?.start ?? element.range.start,
        known: keys, state: root.state)
      let hasID = table.entry("id") != nil
      guard let header = table.headerRange else {
        let start = element.range.start
        out.append(
          (
            reader,
            ReminderSource(
              header: nil, block: start.offset..<element.range.end.offset, start: start,
              hasExplicitID: hasID)
          ))
        continue
      }
      let index = headerIndex[header.start.offset]
      let lineStart = index.map { document.headers[$0].lineStart } ?? header.start
      var end = document.byteCount
      if let i = index, i + 1 < document.headers.count {
        end = document.headers[i + 1].lineStart.offset
      }
      out.append(
        (
          reader,
          ReminderSource(
            header: header, block: lineStart.offset..<max(end, lineStart.offset),
            start: lineStart, hasExplicitID: hasID)
        ))
    }
    return out
  }

  /// One reminder, and where its written id is (nil when derived); nil when it has errors.
  private static func reminder(_ r: TableReader) -> (Reminder, SourcePosition?)? {
    let errorsBefore = r.state.errorCount
    var idPosition: SourcePosition?
    var id = ""
    if let entry = r.entry("id") {
      if case .string(let text) = entry.node.value, text == reservedID {
        r.state.error(
          entry.node.range.start,
          "'id' \"new\" is reserved (the page's add form is /reminders/new); choose another")
      } else if case .string(let text) = entry.node.value, AlarmID.isValid(text) {
        id = text
        idPosition = entry.node.range.start
      } else if case .string(let text) = entry.node.value {
        r.state.error(
          entry.node.range.start,
          "'id' must be lower-case letters, digits, '-' and '_' (starting with a letter or "
            + "digit, at most \(AlarmID.maxLength)), not \(quoted(TOMLFormat.excerpt(text)))")
      } else {
        r.mismatch(entry, "a string like \"bins\"")
      }
    }
    var title: String?
    if let text = r.string("title", maxBytes: Reminder.maxTitleBytes) {
      if let problem = Reminder.titleProblem(text), let entry = r.entry("title") {
        r.state.error(entry.node.range.start, "'title' \(problem)")
      } else {
        title = text
      }
    } else if r.entry("title") == nil {
      r.state.error(
        r.anchor, "this [[reminder]] has no 'title' (e.g. title = \"Take the bins out\")")
    }
    var notes: String?
    if let text = r.string("notes", nonEmpty: false, maxBytes: Reminder.maxNotesBytes) {
      if let problem = notesProblem(text), let entry = r.entry("notes") {
        r.state.error(entry.node.range.start, "'notes' \(problem)")
      } else if !text.isEmpty {
        notes = text
      }
    }
    let due = r.entry("due").flatMap { dueValue($0, r) }
    let done = r.bool("done") ?? false
    var photo: String?
    if let name = r.string("photo", maxBytes: TableReader.maxNameBytes) {
      if isPhotoName(name) {
        photo = name
      } else if let entry = r.entry("photo") {
        r.state.error(
          entry.node.range.start,
          "'photo' must be a file name in the reminder-photos directory (letters, digits, "
            + "'.', '-', '_'; not starting with '.'), not \(quoted(TOMLFormat.excerpt(name)))")
      }
    }
    guard let title, r.state.errorCount == errorsBefore else { return nil }
    let reminder = Reminder(
      id: id, title: title, notes: notes, due: due, done: done, photo: photo)
    return (reminder, idPosition)
  }

  private static func dueValue(_ entry: TOMLEntry, _ r: TableReader) -> ReminderDue? {
    let at = entry.node.range.start
    switch entry.node.value {
    case .localDate(let d):
      let date = LocalDate(year: d.year, month: d.month, day: d.day)
      if date.isValid { return .day(date) }
      r.state.error(at, "'due' \(date) does not exist")
    case .localDateTime(let dt):
      let date = LocalDate(year: dt.date.year, month: dt.date.month, day: dt.date.day)
      guard date.isValid else {
        r.state.error(at, "'due' \(date) does not exist")
        return nil
      }
      return .time(
        date, LocalTime(hour: dt.time.hour, minute: dt.time.minute, second: dt.time.second))
    case .offsetDateTime:
      r.state.error(
        at,
        "'due' is local to the device: write it without an offset, like 2026-12-04T07:30:00")
    case .string(let text):
      switch ReminderDue.parse(text) {
      case .success(let due): return due
      case .failure(let e):
        r.state.error(at, "'due' \(e)")
      }
    default:
      r.mismatch(entry, ReminderDue.expected)
    }
    return nil
  }

  /// Whether the written `value` already is `new` (then an edit leaves its spelling).
  static func same(_ value: TOMLValue, _ new: ReminderValue) -> Bool {
    switch (value, new) {
    case (.string(let a), .string(let b)): return a == b
    case (.boolean(let a), .boolean(let b)): return a == b
    case (.localDate(let d), .due(.day(let b))):
      return LocalDate(year: d.year, month: d.month, day: d.day) == b
    case (.localDateTime(let dt), .due(.time(let bd, let bt))):
      return LocalDate(year: dt.date.year, month: dt.date.month, day: dt.date.day) == bd
        && LocalTime(hour: dt.time.hour, minute: dt.time.minute, second: dt.time.second) == bt
        && dt.time.nanosecond == 0
    default: return false
    }
  }

  /// Notes may span lines; other control characters (a terminal would act on them) not.
  static func notesProblem(_ text: String) -> String? {
    for s in text.unicodeScalars {
      switch s.value {
      case 0x0A, 0x09: continue
      case 0x00...0x1F, 0x7F...0x9F:
        return "must not contain the control character \(AlarmDecoder.codePoint(s))"
      default: continue
      }
    }
    return nil
  }

  /// A plain file name: no directory, no hidden file.
  public static func isPhotoName(_ name: String) -> Bool {
    guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= 255 else {
      return false
    }
    return name.utf8.allSatisfy { b in
      (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
        || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }
  }
}
