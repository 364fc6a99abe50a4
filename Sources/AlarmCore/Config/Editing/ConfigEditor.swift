import TOML

/// One change to the alarms of a config file.
public enum ConfigEdit: Hashable, Sendable {
  /// Appends a new alarm (`changes.values` must hold its `time`).
  case add(AlarmChanges)
  /// Changes the alarm with this id.
  case edit(id: String, AlarmChanges)
  case remove(id: String)
  case enable(id: String)
  case disable(id: String)
}

/// What an edit did.
public struct ConfigEditResult: Sendable {
  /// The whole new text (the original text when nothing changed).
  public var text: String
  /// False when the file already was as asked (`enable` on an enabled alarm).
  public var changed: Bool
  /// The UTF-8 byte range of the original text that was replaced; every byte before and
  /// after it is unchanged. nil when nothing changed.
  public var touched: Range<Int>?
  /// The alarm's id after the edit (for `remove`, the id it had).
  public var alarmID: String
  /// The decoded new config: `alarm(id: alarmID)` is the edited alarm (nil after `remove`).
  public var config: Config
  /// The new text's diagnostics (warnings only: errors refuse the edit).
  public var result: ConfigResult
  /// Things the user should know: an id written to keep it stable, other alarms whose
  /// derived id changed.
  public var notes: [String]
}

/// Why an edit was refused. The file must be left as it is.
public enum ConfigEditError: Error, Sendable {
  /// The file has errors already; fix them first.
  case invalidConfig(ConfigResult)
  /// No alarm has this id. `nearMatches` are the likely typos, `ids` every id.
  case unknownAlarm(id: String, nearMatches: [String], ids: [String])
  /// The edit would make the file invalid: the new text's diagnostics.
  case invalidResult(ConfigResult, text: String)
  /// The edit cannot be made as asked (the reason in plain words).
  case refused(String)
}

/// Edits the alarms of a config file's text in place, touching only the affected alarm's
/// `[[alarm]]` block (or inline table) and keeping every comment and all formatting
/// elsewhere. Pure: the caller reads the file, passes its text, and writes the result
/// only if the file has not changed meanwhile.
public enum ConfigEditor {
  public static func apply(_ edit: ConfigEdit, to text: String, path: String, now: LocalDate?)
    -> Result<ConfigEditResult, ConfigEditError>
  {
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(text)
    } catch {
      return .failure(.invalidConfig(ConfigDecoder.decode(text, path: path, now: now)))
    }
    let before = ConfigDecoder.decode(document, path: path, now: now)
    guard let config = before.config else { return .failure(.invalidConfig(before)) }
    let source = SourceText(text)
    let planned: Result<Plan, ConfigEditError>
    switch edit {
    case .add(let changes):
      planned = planAdd(changes, config: config, document: document, source: source)
    case .edit(let id, let changes):
      planned = locate(id, config: config, document: document).flatMap {
        planEdit(changes, target: $0, config: config, source: source)
      }
    case .enable(let id), .disable(let id):
      let on = if case .enable = edit { true } else { false }
      planned = locate(id, config: config, document: document).flatMap { target in
        let written = target.table.entry(AlarmKey.enabled.rawValue) != nil
        if target.alarm.enabled == on && (written || on) {
          return .success(Plan(splices: [], index: target.index, notes: []))
        }
        return planEdit(
          AlarmChanges(values: [.enabled: .boolean(on)]), target: target, config: config,
          source: source)
      }
    case .remove(let id):
      planned = locate(id, config: config, document: document).map { target in
        Plan(
          splices: [removal(target, document: document, source: source)], index: nil,
          notes: [])
      }
    }
    let plan: Plan
    switch planned {
    case .success(let p): plan = p
    case .failure(let e): return .failure(e)
    }
    if plan.splices.isEmpty {
      let id = plan.index.map { config.alarms[$0].id } ?? ""
      return .success(
        ConfigEditResult(
          text: text, changed: false, touched: nil, alarmID: id, config: config, result: before,
          notes: plan.notes))
    }
    return finish(plan, edit: edit, old: config, source: source, path: path, now: now)
  }

  /// The alarms near `id` (likely typos): edit distance, or one containing the other.
  public static func nearMatches(_ id: String, in ids: [String]) -> [String] {
    let w = Array(id.unicodeScalars)
    return ids.filter { candidate in
      let c = Array(candidate.unicodeScalars)
      return Suggestion.distance(w, c, limit: 2) <= 2
        || (id.count >= 3 && (candidate.contains(id) || id.contains(candidate)))
    }.sorted()
  }

  // MARK: - Planning

  struct Plan {
    var splices: [TextSplice]
    /// The edited alarm's index in `Config.alarms` after the edit; nil for `remove`.
    var index: Int?
    var notes: [String]
  }

  /// An alarm found by id, with where it is written.
  struct Target {
    var index: Int
    var alarm: Alarm
    var source: AlarmSource
    var table: TOMLTable
    /// Its node in the `alarm` array (for an inline table, the `{ ... }`).
    var node: TOMLNode
    var array: TOMLArray
    var arrayNode: TOMLNode
  }

  private static func locate(_ id: String, config: Config, document: TOMLDocument)
    -> Result<Target, ConfigEditError>
  {
    guard let index = config.alarms.firstIndex(where: { $0.id == id }),
      let source = config.alarmSources[id],
      let entry = document.root.entry("alarm"), case .array(let array) = entry.node.value,
      array.elements.indices.contains(index),
      case .table(let table) = array.elements[index].value
    else {
      let ids = config.alarms.map(\.id)
      return .failure(.unknownAlarm(id: id, nearMatches: nearMatches(id, in: ids), ids: ids))
    }
    return .success(
      Target(
        index: index, alarm: config.alarms[index], source: source, table: table,
        node: array.elements[index], array: array, arrayNode: entry.node))
  }

  private static func checkIDFree(_ id: String, except: Int?, config: Config)
    -> ConfigEditError?
  {
    guard let other = config.alarms.firstIndex(where: { $0.id == id }), other != except else {
      return nil
    }
    let line = config.alarmSources[id]?.start.line ?? 0
    return .refused("id '\(id)' is already used by the alarm at line \(line)")
  }

  private static func planEdit(
    _ changes: AlarmChanges, target: Target, config: Config, source: SourceText
  ) -> Result<Plan, ConfigEditError> {
    var changes = changes
    var notes: [String] = []
    if changes.unset.contains(.time) {
      return .failure(.refused("'time' cannot be removed: every alarm needs one"))
    }
    if case .string(let newID)? = changes.values[.id], newID != target.alarm.id,
      let problem = checkIDFree(newID, except: target.index, config: config)
    {
      return .failure(problem)
    }
    if !target.source.hasExplicitID && changes.changesDerivedID && changes.values[.id] == nil
      && !changes.unset.contains(.id)
    {
      changes.values[.id] = .string(target.alarm.id)
      notes.append(
        "wrote id = \"\(target.alarm.id)\" into the alarm so that its id stays "
          + "'\(target.alarm.id)' (it was derived from its label and time)")
    }
    for key in changes.values.keys where changes.unset.contains(key) { changes.unset.remove(key) }
    var appended: [SkipEntry] = []
    for entry in changes.addSkips where !entry.isListed(in: target.alarm) {
      if !appended.contains(entry) { appended.append(entry) }
    }
    let form: TableTextEdits.Form =
      target.source.header.map { .block(headerEnd: $0.end.offset) } ?? .inline
    let edits = AlarmBlockEdits(source: source, table: target.table, form: form)
    let splices = edits.splices(set: changes.values, unset: changes.unset, appendSkips: appended)
    return .success(Plan(splices: splices, index: target.index, notes: notes))
  }

  private static func planAdd(
    _ changes: AlarmChanges, config: Config, document: TOMLDocument, source: SourceText
  ) -> Result<Plan, ConfigEditError> {
    guard changes.values[.time] != nil else {
      return .failure(.refused("a new alarm needs a 'time'"))
    }
    if case .string(let id)? = changes.values[.id],
      let problem = checkIDFree(id, except: nil, config: config)
    {
      return .failure(problem)
    }
    var values = changes.values
    let skips = Array(Set(changes.addSkips)).sorted()
    if !skips.isEmpty, values[.skip] == nil { values[.skip] = .skips(skips) }
    let pairs = values.keys.sorted().map { ($0.rawValue, values[$0]!.toml) }
    let index = config.alarms.count
    if let entry = document.root.entry("alarm"), case .array(let array) = entry.node.value,
      !document.headers.contains(where: { $0.path == ["alarm"] })
    {
      // `alarm = [...]`: a [[alarm]] block after it would redefine it; add to the array.
      let table = "{ " + pairs.map { "\($0.0) = \($0.1)" }.joined(separator: ", ") + " }"
      if let last = array.elements.last {
        return .success(
          Plan(splices: [.insert(", " + table, at: last.range.end.offset)], index: index, notes: [])
        )
      }
      let range = entry.node.range.start.offset..<entry.node.range.end.offset
      return .success(
        Plan(splices: [TextSplice(range, "[" + table + "]")], index: index, notes: []))
    }
    return .success(
      Plan(
        splices: [TableTextEdits.appendBlock("alarm", pairs: pairs, to: source)], index: index,
        notes: []))
  }

  /// What `remove` cuts: for an `[[alarm]]` block, the comment lines right above its header,
  /// the block, and its trailing blank lines, but not the comment lines right above the next
  /// header (they describe what follows). For an inline table, the table and one comma.
  private static func removal(_ target: Target, document: TOMLDocument, source: SourceText)
    -> TextSplice
  {
    guard let header = target.source.header else {
      let elements = target.array.elements
      let i = target.index
      if elements.count == 1 {
        let node = target.arrayNode
        return TextSplice(node.range.start.offset..<node.range.end.offset, "[]")
      }
      if i + 1 < elements.count {
        return TextSplice(elements[i].range.start.offset..<elements[i + 1].range.start.offset, "")
      }
      return TextSplice(elements[i - 1].range.end.offset..<elements[i].range.end.offset, "")
    }
    let extent = TableTextEdits.blockExtent(
      block: target.source.block, header: header, table: target.table, source: source)
    return TextSplice(extent, "")
  }

  // MARK: - Checking the result

  private static func finish(
    _ plan: Plan, edit: ConfigEdit, old: Config, source: SourceText, path: String,
    now: LocalDate?
  ) -> Result<ConfigEditResult, ConfigEditError> {
    let (text, touched) = source.applying(plan.splices)
    let after = ConfigDecoder.decode(text, path: path, now: now)
    guard let config = after.config else { return .failure(.invalidResult(after, text: text)) }
    var notes = plan.notes
    let removedIndex: Int? =
      if case .remove(let id) = edit {
        old.alarms.firstIndex { $0.id == id }
      } else { nil }
    let id: String
    if let i = plan.index, config.alarms.indices.contains(i) {
      id = config.alarms[i].id
    } else if case .remove(let removed) = edit {
      id = removed
    } else {
      id = ""
    }
    // Other alarms whose derived id moved (an alarm with the same label and time went).
    var newIndex = 0
    for (i, alarm) in old.alarms.enumerated() where i != removedIndex {
      defer { newIndex += 1 }
      guard config.alarms.indices.contains(newIndex), i != plan.index else { continue }
      let now = config.alarms[newIndex].id
      if now != alarm.id {
        notes.append("the alarm that was '\(alarm.id)' is now '\(now)' (its id is derived)")
      }
    }
    return .success(
      ConfigEditResult(
        text: text, changed: true, touched: touched, alarmID: id, config: config,
        result: after, notes: notes))
  }
}
