import Testing

@testable import TOML

/// Parses `text`, recording an issue (and returning nil) if it is rejected.
func parse(
  _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> TOMLDocument? {
  do {
    return try TOMLParser.parse(text)
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// The document's root as inline TOML text: a compact, exact rendering to
/// compare whole documents against.
func render(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
  guard let document = parse(text, sourceLocation: sourceLocation) else { return nil }
  return TOMLFormat.value(.table(document.root))
}

/// The value at a dotted path (array elements by number), for tests.
func lookup(_ document: TOMLDocument, _ path: String) -> TOMLValue? {
  var value = TOMLValue.table(document.root)
  for part in path.split(separator: ".") {
    switch value {
    case .table(let t):
      guard let v = t[String(part)] else { return nil }
      value = v
    case .array(let a):
      guard let n = Int(part), n < a.elements.count else { return nil }
      value = a.elements[n].value
    default:
      return nil
    }
  }
  return value
}

/// The node at a dotted path, for position checks.
func node(_ document: TOMLDocument, _ path: String) -> TOMLNode? {
  var current = TOMLNode(
    value: .table(document.root),
    range: SourceRange(
      start: SourcePosition(line: 1, column: 1, offset: 0),
      end: SourcePosition(line: 1, column: 1, offset: 0)))
  for part in path.split(separator: ".") {
    switch current.value {
    case .table(let t):
      guard let e = t.entry(String(part)) else { return nil }
      current = e.node
    case .array(let a):
      guard let n = Int(part), n < a.elements.count else { return nil }
      current = a.elements[n]
    default:
      return nil
    }
  }
  return current
}

/// The single value of a one-line document `v = ...`.
func value(_ literal: String, sourceLocation: SourceLocation = #_sourceLocation) -> TOMLValue? {
  guard let document = parse("v = " + literal, sourceLocation: sourceLocation) else {
    return nil
  }
  return document.root["v"]
}

/// Expects `text` to be rejected at `line:column` with a message that
/// contains `fragment`.
func expectError(
  _ text: String, at line: Int, _ column: Int, _ fragment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let document = try TOMLParser.parse(text)
    Issue.record(
      "accepted invalid TOML: \(TOMLFormat.value(.table(document.root)))",
      sourceLocation: sourceLocation)
  } catch {
    #expect(
      error.position.line == line && error.position.column == column,
      "wrong position for \(error)", sourceLocation: sourceLocation)
    #expect(
      error.message.contains(fragment), "message of \(error) lacks '\(fragment)'",
      sourceLocation: sourceLocation)
    #expect(
      error.message.first?.isUppercase != true && error.message.last != ".",
      "message style: \(error.message)", sourceLocation: sourceLocation)
  }
}

/// Expects `text` to be rejected, anywhere, for any reason.
func expectInvalid(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
  do {
    let document = try TOMLParser.parse(text)
    Issue.record(
      "accepted invalid TOML: \(TOMLFormat.value(.table(document.root)))",
      sourceLocation: sourceLocation)
  } catch {}
}
