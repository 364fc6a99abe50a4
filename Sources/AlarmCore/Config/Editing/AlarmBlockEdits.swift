import TOML

/// The splices that change one alarm's keys where it is written: an `[[alarm]]` block
/// (keys set in place, new keys on lines of their own, removed keys' lines dropped) or an
/// inline table in `alarm = [{ ... }]` (entries changed, appended or cut with their comma).
/// Every byte that is not part of a changed entry stays as it was.
struct AlarmBlockEdits {
  enum Form {
    /// `[[alarm]]`: `headerEnd` is the offset just past `]]`.
    case block(headerEnd: Int)
    /// `{ ... }` in an inline array.
    case inline
  }

  let source: SourceText
  let table: TOMLTable
  let form: Form

  /// Keys to write (new or changed), keys to drop, and entries to append to `skip`.
  func splices(set: [AlarmKey: AlarmValue], unset: Set<AlarmKey>, appendSkips: [SkipEntry])
    -> [TextSplice]
  {
    var splices: [TextSplice] = []
    var newEntries: [(AlarmKey, AlarmValue)] = []
    for key in set.keys.sorted() {
      let value = set[key]!
      if let entry = table.entry(key.rawValue) {
        splices.append(TextSplice(range(entry.node), value.rendered(like: entry.node.value)))
      } else {
        newEntries.append((key, value))
      }
    }
    if !appendSkips.isEmpty && set[.skip] == nil {
      if let entry = table.entry(AlarmKey.skip.rawValue), case .array(let array) = entry.node.value
      {
        if let last = array.elements.last {
          // A day in the style of the list's last entry (a bare date or a string).
          func text(_ e: SkipEntry) -> String {
            if case .day(let d) = e { return AlarmValue.date(d).rendered(like: last.value) }
            return e.toml
          }
          splices.append(
            .insert(appendSkips.map { ", " + text($0) }.joined(), at: last.range.end.offset))
        } else {
          splices.append(TextSplice(range(entry.node), AlarmValue.skips(appendSkips).toml))
        }
      } else {
        newEntries.append((.skip, .skips(appendSkips)))
      }
    }
    let removed = table.entries.filter { e in unset.contains { $0.rawValue == e.key } }
    let kept = table.entries.filter { e in !unset.contains { $0.rawValue == e.key } }
    switch form {
    case .block(let headerEnd):
      splices += removed.map { TextSplice(lines(of: $0), "") }
      splices += blockInserts(newEntries, kept: kept, headerEnd: headerEnd)
    case .inline:
      splices += inlineRemovals(removedKeys: Set(removed.map(\.key)))
      if !newEntries.isEmpty, let anchor = kept.max(by: { end($0) < end($1) }) {
        let text = newEntries.map { ", \($0.0.rawValue) = \($0.1.toml)" }.joined()
        splices.append(.insert(text, at: end(anchor)))
      }
    }
    return splices
  }

  private func range(_ node: TOMLNode) -> Range<Int> {
    node.range.start.offset..<node.range.end.offset
  }

  private func end(_ entry: TOMLEntry) -> Int { entry.node.range.end.offset }

  /// An entry's whole lines: from the start of its key's line to past the end of the line
  /// its value ends on (with a trailing comment and the line ending).
  private func lines(of entry: TOMLEntry) -> Range<Int> {
    source.lineStart(entry.keyRange.start.offset)..<source.lineEnd(end(entry))
  }

  /// New `key = value` lines: `id` right under the header, the rest after the last key
  /// that stays, indented like it.
  private func blockInserts(_ entries: [(AlarmKey, AlarmValue)], kept: [TOMLEntry], headerEnd: Int)
    -> [TextSplice]
  {
    let nl = source.newline
    let last = kept.max { end($0) < end($1) }
    let first = kept.min { $0.keyRange.start < $1.keyRange.start }
    var out: [TextSplice] = []
    func insertLines(_ group: [(AlarmKey, AlarmValue)], at offset: Int, indent: String) {
      guard !group.isEmpty else { return }
      let lines = group.map { indent + "\($0.0.rawValue) = \($0.1.toml)" }
      if offset == source.bytes.count && !source.endsWithNewline {
        // The line we follow is the file's last and has no line ending: keep it that way.
        out.append(.insert(nl + lines.joined(separator: nl), at: offset))
      } else {
        out.append(.insert(lines.map { $0 + nl }.joined(), at: offset))
      }
    }
    let headerLineEnd = source.lineEnd(headerEnd)
    let ids = entries.filter { $0.0 == .id }
    let others = entries.filter { $0.0 != .id }
    insertLines(
      ids, at: headerLineEnd,
      indent: first.map { source.indentation(ofLineAt: $0.keyRange.start.offset) } ?? "")
    insertLines(
      others, at: last.map { source.lineEnd(end($0)) } ?? headerLineEnd,
      indent: last.map { source.indentation(ofLineAt: $0.keyRange.start.offset) } ?? "")
    return out
  }

  /// Cuts removed entries out of `{ a = 1, b = 2, c = 3 }` with their separating comma.
  private func inlineRemovals(removedKeys: Set<String>) -> [TextSplice] {
    let entries = table.entries.sorted { $0.keyRange.start < $1.keyRange.start }
    var out: [TextSplice] = []
    var i = 0
    while i < entries.count {
      guard removedKeys.contains(entries[i].key) else {
        i += 1
        continue
      }
      var j = i
      while j + 1 < entries.count && removedKeys.contains(entries[j + 1].key) { j += 1 }
      if i > 0 {
        out.append(TextSplice(end(entries[i - 1])..<end(entries[j]), ""))
      } else if j + 1 < entries.count {
        let from = entries[i].keyRange.start.offset
        out.append(TextSplice(from..<entries[j + 1].keyRange.start.offset, ""))
      } else {
        out.append(TextSplice(entries[i].keyRange.start.offset..<end(entries[j]), ""))
      }
      i = j + 1
    }
    return out
  }
}
