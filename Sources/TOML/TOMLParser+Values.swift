/// Values: dispatch on the first byte, arrays and inline tables.
extension Parser {
  mutating func parseValue() throws(TOMLError) -> TOMLNode {
    let start = position(i)
    let value: TOMLValue
    let b = peek()
    switch b {
    case ASCII.quote:
      if peek(1) == ASCII.quote, peek(2) == ASCII.quote {
        value = .string(try parseMultilineString(literal: false))
      } else {
        value = .string(try parseBasicString())
      }
    case ASCII.apostrophe:
      if peek(1) == ASCII.apostrophe, peek(2) == ASCII.apostrophe {
        value = .string(try parseMultilineString(literal: true))
      } else {
        value = .string(try parseLiteralString())
      }
    case ASCII.openBracket:
      value = try parseArray()
    case ASCII.openBrace:
      value = try parseInlineTable()
    case ASCII.zero...ASCII.nine, ASCII.plus, ASCII.minus:
      value = try parseNumberOrDate()
    default:
      if ASCII.isLetter(b) {
        value = try parseWord()
      } else {
        throw error("expected a value, found \(describe(at: i))", at: i)
      }
    }
    return TOMLNode(value: value, range: range(from: start))
  }

  /// `true`, `false`, `inf`, `nan`, or a helpful error for a bare word.
  mutating func parseWord() throws(TOMLError) -> TOMLValue {
    let s = i
    while i < bytes.count, ASCII.isBareKey(bytes[i]) || bytes[i] == ASCII.dot { i += 1 }
    let whole = String(decoding: bytes[s..<i], as: UTF8.self)
    let word = TOMLFormat.excerpt(whole)
    switch whole {
    case "true": return .boolean(true)
    case "false": return .boolean(false)
    case "inf": return .float(.infinity)
    case "nan": return .float(.nan)
    default:
      let lower = word.lowercased()
      if lower == "true" || lower == "false" {
        throw error("invalid value '\(word)': booleans are lower-case 'true' or 'false'", at: s)
      }
      if lower == "inf" || lower == "nan" {
        throw error("invalid value '\(word)': write 'inf' or 'nan' in lower case", at: s)
      }
      throw error("invalid value '\(word)' (strings must be quoted)", at: s)
    }
  }

  mutating func enterNesting() throws(TOMLError) {
    depth += 1
    if depth > TOMLParser.maxNestingDepth {
      throw error(
        "arrays and inline tables are nested more than \(TOMLParser.maxNestingDepth) deep",
        at: i)
    }
  }

  /// `[ v, v, ... ]`; newlines, comments and a trailing comma are allowed.
  mutating func parseArray() throws(TOMLError) -> TOMLValue {
    let open = position(i)
    try enterNesting()
    i += 1
    var elements: [TOMLNode] = []
    while true {
      try skipBlankAndComments()
      if peek() == ASCII.closeBracket {
        i += 1
        break
      }
      if atEnd { throw error("unterminated array (opened at \(open))", at: i) }
      if peek() == ASCII.comma { throw error("expected a value before ','", at: i) }
      // Room for a few on the first: one allocation instead of growing 1, 2, 4.
      if elements.isEmpty { elements.reserveCapacity(4) }
      elements.append(try parseValue())
      try skipBlankAndComments()
      if peek() == ASCII.comma {
        i += 1
      } else if peek() == ASCII.closeBracket {
        i += 1
        break
      } else if atEnd {
        throw error("unterminated array (opened at \(open))", at: i)
      } else {
        throw error("expected ',' or ']' after an array element, found \(describe(at: i))", at: i)
      }
    }
    depth -= 1
    return .array(TOMLArray(elements: elements))
  }

  /// `{ k = v, ... }` on one line, no trailing comma. Sealed once closed.
  mutating func parseInlineTable() throws(TOMLError) -> TOMLValue {
    let open = position(i)
    try enterNesting()
    i += 1
    let table = TableBuilder(origin: .inline, range: SourceRange(start: open, end: open))
    skipWhitespace()
    if peek() == ASCII.closeBrace {
      i += 1
      depth -= 1
      return .table(table.freeze())
    }
    while true {
      try checkInlineLineBreak(open: open)
      let key = try parseKey()
      defer { popKey(key) }
      guard peek() == ASCII.equals else {
        try checkInlineLineBreak(open: open)
        throw error("expected '=' after key, found \(describe(at: i))", at: i)
      }
      i += 1
      skipWhitespace()
      try checkInlineLineBreak(open: open)
      try insert(key, value: try parseValue(), into: table)
      skipWhitespace()
      if peek() == ASCII.comma {
        i += 1
        skipWhitespace()
        if peek() == ASCII.closeBrace {
          throw error("trailing comma is not allowed in an inline table", at: i)
        }
        continue
      }
      if peek() == ASCII.closeBrace {
        i += 1
        break
      }
      try checkInlineLineBreak(open: open)
      throw error(
        "expected ',' or '}' after an inline table entry, found \(describe(at: i))", at: i)
    }
    depth -= 1
    return .table(table.freeze())
  }

  /// Inline tables must fit on one line (TOML 1.0) and hold no comments.
  mutating func checkInlineLineBreak(open: SourcePosition) throws(TOMLError) {
    let b = peek()
    if atEnd { throw error("unterminated inline table (opened at \(open))", at: i) }
    if b == ASCII.lf || b == ASCII.cr {
      throw error(
        "newlines are not allowed inside an inline table (opened at \(open))", at: i)
    }
    if b == ASCII.hash {
      throw error("comments are not allowed inside an inline table", at: i)
    }
  }
}
