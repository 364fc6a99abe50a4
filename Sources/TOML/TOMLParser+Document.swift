/// The document level: key/value lines, table headers and keys.
extension Parser {
  mutating func parseDocument() throws(TOMLError) -> TOMLDocument {
    try rejectNul()
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      i = 3
      lineStart = 3
      colCacheOffset = 3
    }
    let origin = SourcePosition(line: 1, column: 1, offset: 0)
    let root = TableBuilder(origin: .root, range: SourceRange(start: origin, end: origin))
    var current = root
    while true {
      skipWhitespace()
      if atEnd { break }
      switch bytes[i] {
      case ASCII.hash:
        try skipComment()
        try expectLineEnd(after: "a comment")
      case ASCII.lf, ASCII.cr:
        _ = try consumeNewline()
      case ASCII.openBracket:
        current = try parseHeader(root: root)
      default:
        try parseKeyValue(into: current)
        try expectLineEnd(after: "a value")
      }
    }
    let end = position(bytes.count)
    root.range = SourceRange(start: origin, end: end)
    return TOMLDocument(root: root.freeze(), headers: headers, byteCount: bytes.count)
  }

  /// NUL can never appear in TOML; rejecting it up front lets `peek()`
  /// use 0 as its end-of-input value. The same pass notes whether the input
  /// is all ASCII (`asciiOnly`).
  mutating func rejectNul() throws(TOMLError) {
    // Eight bytes at a time (a byte loop was 5 instructions a byte, more than a
    // percent of a large config): a word holds a zero byte exactly when
    // (w - 0x01…01) & ~w & 0x80…80 is not zero; any high bit means non-ASCII.
    let (nul, high) = bytes.withUnsafeBytes { raw -> (Int?, UInt64) in
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      var high: UInt64 = 0
      var j = 0
      while j + 8 <= raw.count {
        let w = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
        if (w &- ones) & ~w & highs != 0 { break }
        high |= w
        j += 8
      }
      while j < raw.count {
        if raw[j] == 0 { return (j, high) }
        high |= UInt64(raw[j])
        j += 1
      }
      return (nil, high)
    }
    guard let z = nul else {
      asciiOnly = high & 0x8080_8080_8080_8080 == 0
      return
    }
    for j in 0..<z where bytes[j] == ASCII.lf { newline(at: j) }
    throw error("nul character (U+0000) is not allowed", at: z)
  }

  /// `[a.b]` or `[[a.b]]`, through the end of its line.
  mutating func parseHeader(root: TableBuilder) throws(TOMLError) -> TableBuilder {
    let lineStartPosition = position(lineStart)
    let start = position(i)
    let isArray = peek(1) == ASCII.openBracket
    i += isArray ? 2 : 1
    skipWhitespace()
    if peek() == ASCII.closeBracket {
      throw error("expected a table name in the header", at: i)
    }
    let keyRange = try parseKey()
    defer { popKey(keyRange) }
    guard peek() == ASCII.closeBracket else {
      let close = isArray ? "']]'" : "']'"
      throw error("expected \(close) to close the table header, found \(describe(at: i))", at: i)
    }
    if isArray {
      guard peek(1) == ASCII.closeBracket else {
        throw error(
          "expected ']]' to close the array-of-tables header, found \(describe(at: i + 1))",
          at: i + 1)
      }
      i += 2
    } else {
      i += 1
    }
    let headerRange = range(from: start)
    headers.append(
      TOMLHeader(
        path: headerPath(keyRange), isArrayOfTables: isArray, range: headerRange,
        lineStart: lineStartPosition))
    let table = try openHeader(keyRange, isArray: isArray, headerRange: headerRange, root: root)
    try expectLineEnd(after: "a table header")
    return table
  }

  /// The names of a header's key: the previous header's array when the key is written
  /// with the same bytes, so the headers of ten thousand `[[alarm]]` tables share one.
  /// (Bytes, not equal strings: a name keeps its spelling, `é` composed or not.)
  mutating func headerPath(_ keyRange: Range<Int>) -> [String] {
    let start = keyStack[keyRange.lowerBound].range.start.offset
    let written = start..<keyStack[keyRange.upperBound - 1].range.end.offset
    defer { previousHeaderKey = written }
    if let previous = headers.last?.path, bytes[written].elementsEqual(bytes[previousHeaderKey]) {
      return previous
    }
    return keyStack[keyRange].map(\.name)
  }

  /// Pops the parts of a key off `keyStack`; `keyRange` is at its top.
  @inline(__always) mutating func popKey(_ keyRange: Range<Int>) {
    // One by one: a key has one part or a few, and `removeSubrange` took 500
    // instructions a line of a large config where `removeLast` takes a handful.
    for _ in keyRange { keyStack.removeLast() }
  }

  /// `key = value` (without the line end).
  mutating func parseKeyValue(into table: TableBuilder) throws(TOMLError) {
    let key = try parseKey()
    defer { popKey(key) }
    guard peek() == ASCII.equals else {
      if atEnd || peek() == ASCII.lf || peek() == ASCII.cr || peek() == ASCII.hash {
        throw error("expected '=' after key '\(keyText(keyStack[key]))'", at: i)
      }
      throw error("expected '=' after key, found \(describe(at: i))", at: i)
    }
    i += 1
    skipWhitespace()
    if atEnd || peek() == ASCII.lf || peek() == ASCII.cr || peek() == ASCII.hash {
      throw error("expected a value after '='", at: i)
    }
    try insert(key, value: try parseValue(), into: table)
  }

  /// A possibly dotted key, with the whitespace around it and its dots.
  /// Its parts are pushed on `keyStack`; the caller pops them.
  mutating func parseKey() throws(TOMLError) -> Range<Int> {
    let first = keyStack.count
    while true {
      skipWhitespace()
      if keyStack.count - first == TOMLParser.maxKeyParts {
        throw error("key has more than \(TOMLParser.maxKeyParts) parts", at: i)
      }
      keyStack.append(try parseSimpleKey())
      skipWhitespace()
      guard peek() == ASCII.dot else { return first..<keyStack.count }
      i += 1
    }
  }

  mutating func parseSimpleKey() throws(TOMLError) -> KeyPart {
    let start = position(i)
    let b = peek()
    let name: String
    if ASCII.isBareKey(b) {
      let s = i
      while i < bytes.count, ASCII.isBareKey(bytes[i]) { i += 1 }
      name = recent.string(bytes, s..<i)
    } else if b == ASCII.quote {
      if peek(1) == ASCII.quote, peek(2) == ASCII.quote {
        throw error("a multi-line string cannot be a key", at: i)
      }
      name = try parseBasicString()
    } else if b == ASCII.apostrophe {
      if peek(1) == ASCII.apostrophe, peek(2) == ASCII.apostrophe {
        throw error("a multi-line string cannot be a key", at: i)
      }
      name = try parseLiteralString()
    } else if atEnd || b == ASCII.lf || b == ASCII.cr {
      throw error("expected a key", at: i)
    } else {
      throw error(
        "expected a key, found \(describe(at: i)) (bare keys may contain only "
          + "A-Z a-z 0-9 _ -; quote other keys)", at: i)
    }
    return KeyPart(name: name, range: range(from: start))
  }
}
