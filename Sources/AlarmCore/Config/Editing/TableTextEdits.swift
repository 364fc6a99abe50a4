import TOML

/// The splices that change one table of a TOML file where it is written: a `[[name]]`
/// block (values replaced in place, new keys on lines of their own, removed keys' lines
/// dropped) or an inline table in `name = [{ ... }]` (entries changed, appended or cut with
/// their comma). Every byte that is not part of a changed entry stays as it was. The alarm
/// editor and the reminder editor both write through it.
struct TableTextEdits {
  enum Form {
    /// `[[name]]`: `headerEnd` is the offset just past `]]`.
    case block(headerEnd: Int)
    /// `{ ... }` in an inline array.
    case inline
  }

  let source: SourceText
  let table: TOMLTable
  let form: Form

  /// `replace`: present entries and their new value text. `add`: new `key = text` entries,
  /// in order; those named in `leading` go right under the header (an id), the others
  /// after the last key that stays. `remove`: keys dropped with their lines.
  func splices(
    replace: [(TOMLEntry, String)], add: [(key: String, text: String)],
    leading: Set<String> = [], remove: Set<String>
  ) -> [TextSplice] {
    var splices = replace.map { TextSplice(range($0.0.node), $0.1) }
    let removed = table.entries.filter { remove.contains($0.key) }
    let kept = table.entries.filter { !remove.contains($0.key) }
    switch form {
    case .block(let headerEnd):
      splices += removed.map { TextSplice(lines(of: $0), "") }
      splices += blockInserts(add, leading: leading, kept: kept, headerEnd: headerEnd)
    case .inline:
      splices += inlineRemovals(removedKeys: Set(removed.map(\.key)))
      if !add.isEmpty, let anchor = kept.max(by: { end($0) < end($1) }) {
        let text = add.map { ", \($0.key) = \($0.text)" }.joined()
        splices.append(.insert(text, at: end(anchor)))
      }
    }
    return splices
  }

  /// A new `[[name]]` block with `pairs` appended at the end of the file, one blank line
  /// after what is there.
  static func appendBlock(
    _ name: String, pairs: [(key: String, text: String)], to source: SourceText
  )
    -> TextSplice
  {
    let nl = source.newline
    var prefix = ""
    if !source.bytes.isEmpty {
      if !source.endsWithNewline { prefix += nl }
      let lastLine = source.lineStart(source.bytes.count - 1)
      if !source.endsWithNewline || !source.isBlankLine(at: lastLine) { prefix += nl }
    }
    let block = prefix + "[[\(name)]]" + nl + pairs.map { "\($0.key) = \($0.text)" + nl }.joined()
    return .insert(block, at: source.bytes.count)
  }

  /// The bytes of a `[[name]]` block that `remove` cuts: the comment lines right above its
  /// header, the block, and its trailing blank lines, but not the comment lines right above
  /// the next header (they describe what follows). `block` runs from the header's line to
  /// the next header's line (or the end of the file).
  static func blockExtent(
    block: Range<Int>, header: SourceRange, table: TOMLTable, source: SourceText
  ) -> Range<Int> {
    let contentEnd = table.entries.reduce(source.lineEnd(header.end.offset)) {
      max($0, source.lineEnd($1.node.range.end.offset))
    }
    var end = block.upperBound
    if end < source.bytes.count {
      // Keep the run of comment lines that leads into the next header.
      let tail = source.lineStarts(in: contentEnd..<block.upperBound)
      for line in tail.reversed() {
        guard source.isCommentLine(at: line) else { break }
        end = line
      }
    }
    var start = block.lowerBound
    while start > 0 {
      let previous = source.lineStart(start - 1)
      guard source.isCommentLine(at: previous) else { break }
      start = previous
    }
    if end == source.bytes.count {
      // The file's last block: take the blank lines that separated it, too.
      while start > 0 {
        let previous = source.lineStart(start - 1)
        guard source.isBlankLine(at: previous) else { break }
        start = previous
      }
    }
    return start..<end
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

  private func blockInserts(
    _ entries: [(key: String, text: String)], leading: Set<String>, kept: [TOMLEntry],
    headerEnd: Int
  ) -> [TextSplice] {
    let nl = source.newline
    let last = kept.max { end($0) < end($1) }
    let first = kept.min { $0.keyRange.start < $1.keyRange.start }
    var out: [TextSplice] = []
    func insertLines(_ group: [(key: String, text: String)], at offset: Int, indent: String) {
      guard !group.isEmpty else { return }
      let lines = group.map { indent + "\($0.key) = \($0.text)" }
      if offset == source.bytes.count && !source.endsWithNewline {
        // The line we follow is the file's last and has no line ending: keep it that way.
        out.append(.insert(nl + lines.joined(separator: nl), at: offset))
      } else {
        out.append(.insert(lines.map { $0 + nl }.joined(), at: offset))
      }
    }
    let headerLineEnd = source.lineEnd(headerEnd)
    insertLines(
      entries.filter { leading.contains($0.key) }, at: headerLineEnd,
      indent: first.map { source.indentation(ofLineAt: $0.keyRange.start.offset) } ?? "")
    insertLines(
      entries.filter { !leading.contains($0.key) },
      at: last.map { source.lineEnd(end($0)) } ?? headerLineEnd,
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
