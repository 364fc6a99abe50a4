import TOML

/// The splices that change one alarm's keys where it is written (`TableTextEdits` does the
/// text): values rendered in the style of the ones they replace, `id` right under the
/// header, and new `skip` entries appended to the written list.
struct AlarmBlockEdits {
  let edits: TableTextEdits

  init(source: SourceText, table: TOMLTable, form: TableTextEdits.Form) {
    edits = TableTextEdits(source: source, table: table, form: form)
  }

  /// Keys to write (new or changed), keys to drop, and entries to append to `skip`.
  func splices(set: [AlarmKey: AlarmValue], unset: Set<AlarmKey>, appendSkips: [SkipEntry])
    -> [TextSplice]
  {
    let table = edits.table
    var replace: [(TOMLEntry, String)] = []
    var add: [(key: String, text: String)] = []
    var extra: [TextSplice] = []
    for key in set.keys.sorted() {
      let value = set[key]!
      if let entry = table.entry(key.rawValue) {
        replace.append((entry, value.rendered(like: entry.node.value)))
      } else {
        add.append((key.rawValue, value.toml))
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
          extra.append(
            .insert(appendSkips.map { ", " + text($0) }.joined(), at: last.range.end.offset))
        } else {
          replace.append((entry, AlarmValue.skips(appendSkips).toml))
        }
      } else {
        add.append((AlarmKey.skip.rawValue, AlarmValue.skips(appendSkips).toml))
      }
    }
    return extra
      + edits.splices(
        replace: replace, add: add, leading: [AlarmKey.id.rawValue],
        remove: Set(unset.map(\.rawValue)))
  }
}
