/// The mutable tree the parser builds before freezing it into the value
/// model. Tables are classes here so headers and dotted keys can reach back
/// into them; the redefinition rules of TOML 1.0 live in this file.

/// A table while the document is being parsed. Entries are kept in their
/// final form; sub-tables are held aside in `subs` and written into their
/// entry's node only when the table is frozen, so scalars are never copied.
final class TableBuilder {
  // Unchecked exclusivity: the parser is the only user of a builder, on one thread and
  // never re-entered, and the runtime's check on every access of these arrays was a
  // twentieth of parsing a large config (docs/reliability.md, "Scale").
  @exclusivity(unchecked) var entries: [TOMLEntry] = []
  /// For each entry, the index into `subs`, or -1 for a finished value.
  /// Left empty while the table has no sub-tables (most tables).
  @exclusivity(unchecked) var subIndex: [Int32] = []
  @exclusivity(unchecked) var subs: [Sub] = []
  /// Built once a table grows past a few keys; small tables scan `entries`.
  @exclusivity(unchecked) var index: [String: Int] = [:]
  var origin: TOMLTableOrigin
  var headerRange: SourceRange?
  /// Where the table was first written (header, key segment or `{`).
  var range: SourceRange
  /// Room reserved on the first key.
  let capacity: Int

  /// Most tables have a handful of keys: `capacity` entries are reserved at once
  /// instead of growing 1, 2, 4, 8.
  init(
    origin: TOMLTableOrigin, range: SourceRange, headerRange: SourceRange? = nil,
    capacity: Int = 8
  ) {
    self.origin = origin
    self.range = range
    self.headerRange = headerRange
    self.capacity = capacity
  }

  private static let indexThreshold = 24

  func find(_ key: String) -> Int? {
    if entries.count > TableBuilder.indexThreshold { return index[key] }
    for k in entries.indices where entries[k].key == key { return k }
    return nil
  }

  /// What entry `k` holds.
  func item(_ k: Int) -> Item {
    let s = k < subIndex.count ? Int(subIndex[k]) : -1
    if s < 0 { return .frozen(entries[k].node) }
    switch subs[s] {
    case .table(let t): return .table(t)
    case .tables(let a): return .tables(a)
    }
  }

  // `consuming` hands the value down to the array without a copy (a retain and a
  // release for every key of a large config).
  func append(key: String, keyRange: SourceRange, node: consuming TOMLNode) {
    append(TOMLEntry(key: key, keyRange: keyRange, node: node), sub: -1)
  }

  func append(key: String, keyRange: SourceRange, sub: Sub) {
    subs.append(sub)
    let placeholder = TOMLNode(value: .boolean(false), range: keyRange)
    append(TOMLEntry(key: key, keyRange: keyRange, node: placeholder), sub: Int32(subs.count - 1))
  }

  private func append(_ entry: consuming TOMLEntry, sub: Int32) {
    if !subs.isEmpty {
      // The first sub-table: from now on every entry gets an index.
      if subIndex.count < entries.count {
        subIndex.append(contentsOf: repeatElement(-1, count: entries.count - subIndex.count))
      }
      subIndex.append(sub)
    }
    if entries.isEmpty { entries.reserveCapacity(capacity) }
    entries.append(entry)
    if entries.count > TableBuilder.indexThreshold {
      if index.isEmpty {
        for (k, e) in entries.enumerated() { index[e.key] = k }
      } else {
        index[entries[entries.count - 1].key] = entries.count - 1
      }
    }
  }

  /// The finished table, in source order. Called once: it hands its
  /// entries over rather than copying them.
  func freeze() -> TOMLTable {
    for k in subIndex.indices where subIndex[k] >= 0 {
      entries[k].node = subs[Int(subIndex[k])].freeze()
    }
    let done = entries
    entries = []
    subs = []
    subIndex = []
    index = [:]
    return TOMLTable(entries: done, origin: origin, headerRange: headerRange)
  }
}

/// An array of tables (`[[a]]`) while the document is being parsed.
final class TableArrayBuilder {
  @exclusivity(unchecked) var elements: [TableBuilder] = []
  var range: SourceRange
  /// The most keys an element has had so far, when it was followed by another.
  private var widest = 0
  init(range: SourceRange) { self.range = range }

  /// A new element, last. It reserves room for as many keys as the widest element
  /// before it: the elements of an array of tables are mostly alike, and a fixed 8
  /// left a third of each `[[alarm]]` table's entries empty (a tenth of the page
  /// faults of a large config).
  func appendElement(range: SourceRange) -> TableBuilder {
    if let last = elements.last { widest = max(widest, last.entries.count) }
    let element = TableBuilder(
      origin: .arrayElement, range: range, headerRange: range,
      capacity: widest > 0 ? widest : 8)
    elements.append(element)
    return element
  }
}

/// A table or array of tables that headers and dotted keys can still reach.
enum Sub {
  case table(TableBuilder)
  case tables(TableArrayBuilder)

  func freeze() -> TOMLNode {
    switch self {
    case .table(let t):
      return TOMLNode(value: .table(t.freeze()), range: t.range)
    case .tables(let a):
      let elements = a.elements.map { t in
        TOMLNode(value: .table(t.freeze()), range: t.range)
      }
      return TOMLNode(value: .array(TOMLArray(elements: elements)), range: a.range)
    }
  }
}

/// What a key of a table under construction holds.
enum Item {
  /// A finished value: scalars, static arrays and inline tables, which can
  /// never be extended after they are written.
  case frozen(TOMLNode)
  case table(TableBuilder)
  case tables(TableArrayBuilder)

  /// Where the item was first written, for "first defined at" messages.
  var range: SourceRange {
    switch self {
    case .frozen(let node): return node.range
    case .table(let t): return t.range
    case .tables(let a): return a.range
    }
  }
}

/// One segment of a key as written.
struct KeyPart {
  var name: String
  var range: SourceRange
}

/// A key path as TOML text (`a."b c".d`), for messages.
/// A key as messages show it: dotted, at most 40 characters.
func keyText(_ parts: some Collection<KeyPart>) -> String {
  TOMLFormat.excerpt(parts.map { TOMLFormat.key($0.name) }.joined(separator: "."))
}

extension Parser {
  /// Inserts `key = value` into `table`, creating tables for the dotted
  /// prefix. Dotted keys may only walk through tables that dotted keys
  /// created: a table made by a header, or implicitly by one, is closed to
  /// them, and inline tables and arrays are closed to everything.
  mutating func insert(
    _ keyRange: Range<Int>, value: consuming TOMLNode, into table: TableBuilder
  ) throws(TOMLError) {
    // The parts are read in place on `keyStack`: copying each part (and slicing the
    // stack) cost more than the rest of an insert.
    guard let last = keyRange.last else { return }
    var current = table
    for n in keyRange.dropLast() {
      guard let k = current.find(keyStack[n].name) else {
        let sub = TableBuilder(origin: .dotted, range: keyStack[n].range)
        current.append(key: keyStack[n].name, keyRange: keyStack[n].range, sub: .table(sub))
        current = sub
        continue
      }
      let position = keyStack[n].range.start
      var path: String { keyText(keyStack[keyRange.lowerBound...n]) }
      switch current.item(k) {
      case .table(let sub) where sub.origin == .dotted:
        current = sub
      case .table(let sub):
        throw TOMLError(
          position: position,
          message: "cannot add keys to table '\(path)' with a dotted key: "
            + "it is defined by a table header at \(sub.range.start)")
      case .tables(let array):
        throw TOMLError(
          position: position,
          message: "cannot add keys to array of tables '\(path)' with a dotted key "
            + "(defined at \(array.range.start))")
      case .frozen(let node):
        throw TOMLError(position: position, message: notATable(path, node))
      }
    }
    if let k = current.find(keyStack[last].name) {
      throw TOMLError(
        position: keyStack[last].range.start,
        message: "duplicate key '\(keyText(keyStack[keyRange]))' (first defined at "
          + "\(current.item(k).range.start))")
    }
    current.append(key: keyStack[last].name, keyRange: keyStack[last].range, node: value)
  }

  /// Opens the table named by a `[a.b]` or `[[a.b]]` header and returns it.
  mutating func openHeader(
    _ keyRange: Range<Int>, isArray: Bool, headerRange: SourceRange, root: TableBuilder
  ) throws(TOMLError) -> TableBuilder {
    let key = keyStack[keyRange]
    var current = root
    for n in keyRange.dropLast() {
      let part = key[n]
      guard let k = current.find(part.name) else {
        let sub = TableBuilder(origin: .implicit, range: part.range)
        current.append(key: part.name, keyRange: part.range, sub: .table(sub))
        current = sub
        continue
      }
      switch current.item(k) {
      case .table(let sub):
        current = sub
      case .tables(let array):
        guard let lastElement = array.elements.last else { return current }
        current = lastElement
      case .frozen(let node):
        throw TOMLError(
          position: part.range.start,
          message: notATable(keyText(key[keyRange.lowerBound...n]), node))
      }
    }
    guard let last = key.last else { return current }
    var path: String { keyText(key) }
    let existing = current.find(last.name)

    if isArray {
      guard let k = existing else {
        let array = TableArrayBuilder(range: headerRange)
        current.append(key: last.name, keyRange: last.range, sub: .tables(array))
        return array.appendElement(range: headerRange)
      }
      switch current.item(k) {
      case .tables(let array):
        return array.appendElement(range: headerRange)
      case .frozen(let node):
        if case .array = node.value {
          throw TOMLError(
            position: last.range.start,
            message: "cannot append to static array '\(path)' with [[\(path)]] "
              + "(defined at \(node.range.start))")
        }
        throw TOMLError(position: last.range.start, message: notATable(path, node))
      case .table(let sub):
        throw TOMLError(
          position: last.range.start,
          message: "'\(path)' is already a table (defined at \(sub.range.start)), "
            + "not an array of tables")
      }
    }

    guard let k = existing else {
      let table = TableBuilder(origin: .header, range: headerRange, headerRange: headerRange)
      current.append(key: last.name, keyRange: last.range, sub: .table(table))
      return table
    }
    switch current.item(k) {
    case .table(let sub) where sub.origin == .implicit:
      // `[a.b]` made `a` implicitly; `[a]` may define it, once.
      sub.origin = .header
      sub.headerRange = headerRange
      sub.range = headerRange
      return sub
    case .table(let sub) where sub.origin == .dotted:
      throw TOMLError(
        position: last.range.start,
        message: "table '\(path)' is already defined by dotted keys "
          + "(at \(sub.range.start))")
    case .table(let sub):
      throw TOMLError(
        position: last.range.start,
        message: "table '\(path)' is defined twice (first at \(sub.range.start))")
    case .tables(let array):
      throw TOMLError(
        position: last.range.start,
        message: "'\(path)' is already an array of tables (defined at "
          + "\(array.range.start))")
    case .frozen(let node):
      throw TOMLError(position: last.range.start, message: notATable(path, node))
    }
  }

  private func notATable(_ path: String, _ node: TOMLNode) -> String {
    switch node.value {
    case .table:
      return "cannot extend inline table '\(path)' (defined at \(node.range.start)); "
        + "inline tables are complete as written"
    case .array:
      return "'\(path)' is a static array (defined at \(node.range.start)), not a table"
    default:
      return "'\(path)' is already \(node.value.kindDescription) "
        + "(defined at \(node.range.start)), not a table"
    }
  }
}
