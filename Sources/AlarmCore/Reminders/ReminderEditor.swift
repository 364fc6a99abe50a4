import TOML

/// Edits a reminder list's text in place, touching only the affected `[[reminder]]` block
/// (or inline table) and keeping every comment and all formatting elsewhere, as
/// `ConfigEditor` does for alarms. Pure: the caller reads the file, passes its text (empty
/// for a list not yet written), and writes the result only if the file has not changed.
public enum ReminderEditor {
  public static func apply(_ edit: ReminderEdit, to text: String, path: String)
    -> Result<ReminderEditResult, ReminderEditError>
  {
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(text)
    } catch {
      return .failure(.invalidList(ReminderDecoder.decode(text, path: path)))
    }
    let before = ReminderDecoder.decode(document, path: path)
    guard let list = before.list else { return .failure(.invalidList(before)) }
    let source = SourceText(text)
    let array = arrayNode(document)
    var plan: Plan
    switch edit {
    case .add(let changes):
      let hasBlocks = document.headers.contains { $0.path == ["reminder"] }
      switch planAdd(changes, list: list, array: array, hasBlocks: hasBlocks, source: source) {
      case .success(let p): plan = p
      case .failure(let e): return .failure(e)
      }
    case .edit(let id, let changes):
      guard let i = list.index(of: id) else { return .failure(unknown(id, list)) }
      switch planEdit(changes, index: i, list: list, array: array, source: source) {
      case .success(let p): plan = p
      case .failure(let e): return .failure(e)
      }
    case .setDone(let id, let done):
      guard let i = list.index(of: id) else { return .failure(unknown(id, list)) }
      if list.reminders[i].done == done {
        plan = Plan(splices: [], order: Array(list.reminders.indices), index: i, notes: [])
      } else {
        let changes =
          done
          ? ReminderChanges(values: [.done: .boolean(true)]) : ReminderChanges(unset: [.done])
        switch planEdit(changes, index: i, list: list, array: array, source: source) {
        case .success(let p): plan = p
        case .failure(let e): return .failure(e)
        }
      }
    case .remove(let id):
      guard let i = list.index(of: id) else { return .failure(unknown(id, list)) }
      plan = Plan(
        splices: [removal(i, list: list, array: array, source: source)],
        order: list.reminders.indices.filter { $0 != i }, index: nil, notes: [])
    case .move(let id, let position):
      guard let i = list.index(of: id) else { return .failure(unknown(id, list)) }
      guard position >= 1 else { return .failure(.refused("positions start at 1")) }
      plan = planMove(
        i, to: min(position, list.reminders.count) - 1, list: list, array: array, source: source)
    }
    if plan.splices.isEmpty {
      return .success(
        ReminderEditResult(
          text: text, changed: false, id: plan.index.map { list.reminders[$0].id } ?? "",
          list: list, warnings: before.warnings, notes: plan.notes))
    }
    let (newText, _) = source.applying(plan.splices)
    let after = ReminderDecoder.decode(newText, path: path)
    guard let newList = after.list else { return .failure(.invalidResult(after)) }
    var notes = plan.notes
    var id = ""
    if let i = plan.index, let at = plan.order.firstIndex(of: i) {
      id = newList.reminders[at].id
    } else if case .remove(let removed) = edit {
      id = removed
    }
    // Reminders whose derived id moved (one with the same title went, or changed places).
    for (newIndex, oldIndex) in plan.order.enumerated() where oldIndex != plan.index {
      guard oldIndex < list.reminders.count, newIndex < newList.reminders.count else { continue }
      let was = list.reminders[oldIndex].id
      let now = newList.reminders[newIndex].id
      if was != now {
        notes.append("the reminder that was '\(was)' is now '\(now)' (its id is derived)")
      }
    }
    return .success(
      ReminderEditResult(
        text: newText, changed: true, id: id, list: newList, warnings: after.warnings,
        notes: notes))
  }

  /// The refusal for an `id` the list does not have, with its likely typos.
  public static func unknown(_ id: String, _ list: ReminderList) -> ReminderEditError {
    let ids = list.reminders.map(\.id)
    return .unknownReminder(id: id, nearMatches: ConfigEditor.nearMatches(id, in: ids), ids: ids)
  }

  // MARK: - Planning

  struct Plan {
    var splices: [TextSplice]
    /// For each reminder of the new list, its index in the old one (`count` for a new one).
    var order: [Int]
    /// The edited reminder's old index (the old count for an added one); nil for `remove`.
    var index: Int?
    var notes: [String]
  }

  /// The `reminder` array and its elements, when the file has one.
  private static func arrayNode(_ document: TOMLDocument) -> (node: TOMLNode, array: TOMLArray)? {
    guard let entry = document.root.entry("reminder"), case .array(let array) = entry.node.value
    else { return nil }
    return (entry.node, array)
  }

  private static func table(_ i: Int, array: (node: TOMLNode, array: TOMLArray)?) -> TOMLTable? {
    guard let array, array.array.elements.indices.contains(i),
      case .table(let t) = array.array.elements[i].value
    else { return nil }
    return t
  }

  private static func idFree(_ id: String, except: Int?, list: ReminderList) -> ReminderEditError? {
    guard let other = list.index(of: id), other != except else { return nil }
    return .refused(
      "id '\(id)' is already used by the reminder at line \(list.sources[other].start.line)")
  }

  private static func planAdd(
    _ changes: ReminderChanges, list: ReminderList,
    array: (node: TOMLNode, array: TOMLArray)?, hasBlocks: Bool, source: SourceText
  ) -> Result<Plan, ReminderEditError> {
    guard case .string(let title)? = changes.values[.title] else {
      return .failure(.refused("a new reminder needs a title"))
    }
    guard list.reminders.count < Reminder.maxCount else {
      return .failure(
        .refused("the list already holds \(Reminder.maxCount) reminders, the most allowed"))
    }
    var values = changes.values
    if case .string(let id)? = values[.id] {
      if let problem = idFree(id, except: nil, list: list) { return .failure(problem) }
    } else {
      var taken = Set(list.reminders.map(\.id))
      values[.id] = .string(
        AlarmID.derive(bases: [ReminderDecoder.baseID(title: title)], taken: &taken)[0])
    }
    if values[.done] == .boolean(false) { values[.done] = nil }
    let pairs = values.keys.sorted().map { (key: $0.rawValue, text: values[$0]!.toml) }
    let index = list.reminders.count
    let order = Array(0...index)
    if let array, !hasBlocks {
      // `reminder = [...]`: a [[reminder]] block after it would redefine it; add to the array.
      let table = "{ " + pairs.map { "\($0.key) = \($0.text)" }.joined(separator: ", ") + " }"
      if let last = array.array.elements.last {
        return .success(
          Plan(
            splices: [.insert(", " + table, at: last.range.end.offset)], order: order, index: index,
            notes: []))
      }
      let range = array.node.range.start.offset..<array.node.range.end.offset
      return .success(
        Plan(splices: [TextSplice(range, "[" + table + "]")], order: order, index: index, notes: [])
      )
    }
    return .success(
      Plan(
        splices: [TableTextEdits.appendBlock("reminder", pairs: pairs, to: source)], order: order,
        index: index, notes: []))
  }

  private static func planEdit(
    _ changes: ReminderChanges, index i: Int, list: ReminderList,
    array: (node: TOMLNode, array: TOMLArray)?, source: SourceText
  ) -> Result<Plan, ReminderEditError> {
    var changes = changes
    var notes: [String] = []
    let reminder = list.reminders[i]
    if changes.unset.contains(.title) {
      return .failure(.refused("'title' cannot be removed: every reminder needs one"))
    }
    if changes.unset.contains(.id) {
      return .failure(.refused("'id' cannot be removed: it keeps the reminder's id stable"))
    }
    if case .string(let newID)? = changes.values[.id], newID != reminder.id,
      let problem = idFree(newID, except: i, list: list)
    {
      return .failure(problem)
    }
    if !list.sources[i].hasExplicitID && changes.values[.id] == nil {
      changes.values[.id] = .string(reminder.id)
      notes.append(
        "wrote id = \"\(reminder.id)\" into the reminder so that its id stays '\(reminder.id)' "
          + "(it was derived from its title)")
    }
    guard let table = table(i, array: array) else {
      return .failure(.refused("the reminder at line \(list.sources[i].start.line) was not found"))
    }
    for key in changes.values.keys { changes.unset.remove(key) }
    let form: TableTextEdits.Form =
      list.sources[i].header.map { .block(headerEnd: $0.end.offset) } ?? .inline
    let edits = TableTextEdits(source: source, table: table, form: form)
    var replace: [(TOMLEntry, String)] = []
    var add: [(key: String, text: String)] = []
    for key in changes.values.keys.sorted() {
      let value = changes.values[key]!
      if let entry = table.entry(key.rawValue) {
        // An unchanged value keeps its own spelling.
        if ReminderDecoder.same(entry.node.value, value) { continue }
        replace.append((entry, value.toml))
      } else {
        add.append((key.rawValue, value.toml))
      }
    }
    let remove = Set(changes.unset.map(\.rawValue)).filter { table.entry($0) != nil }
    let splices = edits.splices(replace: replace, add: add, leading: ["id"], remove: remove)
    return .success(
      Plan(
        splices: splices, order: Array(list.reminders.indices), index: i,
        notes: splices.isEmpty ? [] : notes))
  }

  /// What `remove` cuts: a block with the comment lines right above it, or an inline table
  /// and one comma.
  private static func removal(
    _ i: Int, list: ReminderList, array: (node: TOMLNode, array: TOMLArray)?, source: SourceText
  ) -> TextSplice {
    let s = list.sources[i]
    if let header = s.header, let table = table(i, array: array) {
      return TextSplice(
        TableTextEdits.blockExtent(block: s.block, header: header, table: table, source: source), ""
      )
    }
    guard let array else { return TextSplice(s.block, "") }
    let elements = array.array.elements
    if elements.count == 1 {
      return TextSplice(array.node.range.start.offset..<array.node.range.end.offset, "[]")
    }
    if i + 1 < elements.count {
      return TextSplice(elements[i].range.start.offset..<elements[i + 1].range.start.offset, "")
    }
    return TextSplice(elements[i - 1].range.end.offset..<elements[i].range.end.offset, "")
  }

  /// Moves reminder `i` to index `target`: its block (with the comment lines above it) is
  /// cut and put before the block now at that place, or after the last one.
  private static func planMove(
    _ i: Int, to target: Int, list: ReminderList, array: (node: TOMLNode, array: TOMLArray)?,
    source: SourceText
  ) -> Plan {
    var order = list.reminders.indices.filter { $0 != i }
    order.insert(i, at: target)
    guard target != i else {
      return Plan(splices: [], order: Array(list.reminders.indices), index: i, notes: [])
    }
    let others = list.reminders.indices.filter { $0 != i }
    if list.sources[i].header == nil, let array {
      let elements = array.array.elements
      let text = String(
        decoding: source.bytes[elements[i].range.start.offset..<elements[i].range.end.offset],
        as: UTF8.self)
      let cut = removal(i, list: list, array: array, source: source)
      let insert: TextSplice =
        target < others.count
        ? .insert(text + ", ", at: elements[others[target]].range.start.offset)
        : .insert(", " + text, at: elements[others[others.count - 1]].range.end.offset)
      return Plan(splices: [cut, insert], order: order, index: i, notes: [])
    }
    // Blocks: each runs from the comment lines above its header to the next one's.
    let starts = list.sources.map { leadingStart($0.block.lowerBound, source: source) }
    func chunk(_ k: Int) -> Range<Int> {
      starts[k]..<(k + 1 < starts.count ? starts[k + 1] : source.bytes.count)
    }
    let nl = source.newline
    func text(_ k: Int) -> String {
      var t = String(decoding: source.bytes[chunk(k)], as: UTF8.self)
      // A chunk that was the last needs the line end and blank line the others have.
      if !t.hasSuffix("\n") { t += nl }
      if !t.hasSuffix(nl + nl) { t += nl }
      return t
    }
    let whole = starts[0]..<source.bytes.count
    var out = order.map(text).joined()
    // One line end at the end, or none when the file had none.
    while out.hasSuffix(nl + nl) { out.removeLast(nl.count) }
    if !source.endsWithNewline { out.removeLast(nl.count) }
    return Plan(splices: [TextSplice(whole, out)], order: order, index: i, notes: [])
  }

  /// The start of the comment lines right above the line at `offset`.
  private static func leadingStart(_ offset: Int, source: SourceText) -> Int {
    var start = offset
    while start > 0 {
      let previous = source.lineStart(start - 1)
      guard source.isCommentLine(at: previous) else { break }
      start = previous
    }
    return start
  }
}
