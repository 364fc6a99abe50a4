// Fuzz target `toml`: arbitrary bytes (decoded as UTF-8, invalid sequences
// replaced) through TOMLParser.parse. Beyond "no crash":
// - every reported position (error, value, key, header) is a real place in
//   the text, with line:col matching the UTF-8 offset;
// - a document that parses, written back with TOMLFormat (every root key as
//   `key = value`, tables inline), parses to the same values.
import TOML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let utf8 = Array(text.utf8)
  let lines = LineTable(utf8)
  let document: TOMLDocument
  do {
    document = try TOMLParser.parse(text)
  } catch {
    checkPosition(error.position, lines, "error '\(error.message)'")
    require(!error.message.isEmpty, "error without a message at \(error.position)")
    return 0
  }
  require(document.byteCount == utf8.count, "byteCount \(document.byteCount) != \(utf8.count)")
  checkTable(document.root, lines)
  for header in document.headers {
    checkRange(header.range, lines, "header \(header.path)")
    checkPosition(header.lineStart, lines, "header line start")
    require(header.lineStart.column == 1, "header line start not at column 1")
  }
  roundTrip(document)
  return 0
}

func checkPosition(_ p: SourcePosition, _ lines: LineTable, _ what: String) {
  if let problem = lines.check(line: p.line, column: p.column, offset: p.offset) {
    fail("\(what) at \(p): \(problem)")
  }
}

func checkRange(_ r: SourceRange, _ lines: LineTable, _ what: String) {
  checkPosition(r.start, lines, what + " start")
  checkPosition(r.end, lines, what + " end")
  require(r.start.offset <= r.end.offset, "\(what): range ends before it starts")
}

func checkTable(_ t: TOMLTable, _ lines: LineTable) {
  if let h = t.headerRange { checkRange(h, lines, "table header") }
  for e in t.entries {
    checkRange(e.keyRange, lines, "key '\(e.key)'")
    checkNode(e.node, lines)
  }
}

func checkNode(_ n: TOMLNode, _ lines: LineTable) {
  // Implicit tables have no text of their own; their range may be anywhere valid.
  checkRange(n.range, lines, "value")
  switch n.value {
  case .array(let a): for e in a.elements { checkNode(e, lines) }
  case .table(let t): checkTable(t, lines)
  default: break
  }
}

/// Writes the root as `key = value` lines and parses that again.
func roundTrip(_ document: TOMLDocument) {
  // Inline tables nest where headers and dotted keys did not: a document
  // near the nesting limit may legitimately not fit inline.
  guard depth(.table(document.root)) < TOMLParser.maxNestingDepth - 1 else { return }
  var text = ""
  for e in document.root.entries {
    text += TOMLFormat.key(e.key) + " = " + TOMLFormat.value(e.node.value) + "\n"
  }
  let again: TOMLDocument
  do {
    again = try TOMLParser.parse(text)
  } catch {
    fail("formatted document does not parse: \(error)\n---\n\(text)---")
  }
  require(
    same(.table(document.root), .table(again.root)),
    "formatted document parses to different values\n---\n\(text)---")
}

func depth(_ v: TOMLValue) -> Int {
  switch v {
  case .array(let a): return 1 + (a.elements.map { depth($0.value) }.max() ?? 0)
  case .table(let t): return 1 + (t.entries.map { depth($0.node.value) }.max() ?? 0)
  default: return 0
  }
}

/// Value equality without positions and table origins; NaN equals NaN and
/// floats compare bit for bit otherwise (so -0.0 != 0.0).
func same(_ a: TOMLValue, _ b: TOMLValue) -> Bool {
  switch (a, b) {
  case (.float(let x), .float(let y)):
    return x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
  case (.array(let x), .array(let y)):
    return x.elements.count == y.elements.count
      && zip(x.elements, y.elements).allSatisfy { same($0.value, $1.value) }
  case (.table(let x), .table(let y)):
    return x.entries.count == y.entries.count
      && zip(x.entries, y.entries).allSatisfy {
        $0.key == $1.key && same($0.node.value, $1.node.value)
      }
  case (.array, _), (.table, _), (.float, _):
    return false
  default:
    return a == b
  }
}
