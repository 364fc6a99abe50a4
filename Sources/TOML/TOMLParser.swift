/// Parses TOML 1.0 text into a `TOMLDocument`.
///
/// The parser works on UTF-8 bytes in one pass. It never traps on input:
/// every problem becomes a `TOMLError` with the `line:col` of the offending
/// character. Nesting of arrays and inline tables is capped at
/// `maxNestingDepth`, and keys / headers at `maxKeyParts` segments, so
/// hostile input cannot exhaust the stack.
///
/// Leap seconds: TOML defers to RFC 3339, whose grammar allows a seconds
/// field of `60`, so `23:59:60` is accepted; `61` and above are rejected.
public enum TOMLParser {
  /// Deepest nesting of arrays and inline tables that is accepted.
  public static let maxNestingDepth = 256
  /// Most segments a dotted key or a table header may have.
  public static let maxKeyParts = 256

  /// Parses a whole document, or throws the first `TOMLError`.
  public static func parse(_ text: String) throws(TOMLError) -> TOMLDocument {
    var parser = Parser(bytes: Array(text.utf8))
    return try parser.parseDocument()
  }

  /// Parses raw bytes that should be UTF-8 (for example a file's contents).
  /// Invalid UTF-8 is reported as an error at the first bad byte.
  public static func parse(utf8 bytes: [UInt8]) throws(TOMLError) -> TOMLDocument {
    var parser = Parser(bytes: bytes)
    try parser.validateUTF8()
    return try parser.parseDocument()
  }
}

/// ASCII codes the parser compares against.
enum ASCII {
  static let tab: UInt8 = 0x09
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let apostrophe: UInt8 = 0x27
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
  static let colon: UInt8 = 0x3A
  static let equals: UInt8 = 0x3D
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let underscore: UInt8 = 0x5F
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
  static let del: UInt8 = 0x7F

  @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= zero && b <= nine }
  @inline(__always) static func isBareKey(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || isDigit(b) || b == minus
      || b == underscore
  }
  @inline(__always) static func isLetter(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
  }
}

/// The parser's state: the bytes, the read index, and line bookkeeping so
/// positions can be produced cheaply.
struct Parser {
  let bytes: [UInt8]
  var i = 0
  var line = 1
  /// Byte offset where the current line starts.
  var lineStart = 0
  /// Column cache for the current line: `colCacheColumn` is the column of
  /// byte offset `colCacheOffset`. Positions are mostly asked in order, so
  /// counting on from the cache keeps long lines linear.
  var colCacheOffset = 0
  var colCacheColumn = 1
  /// Whether every byte of the input is ASCII (found by `rejectNul`'s scan): then a
  /// column is the byte distance from the line start, and positions need no counting.
  var asciiOnly = false
  var headers: [TOMLHeader] = []
  /// Where the key of the last header is written (`headerPath`).
  var previousHeaderKey = 0..<0
  /// Keys being parsed, innermost last; a stack (rather than an array per
  /// key) saves an allocation per key/value pair.
  var keyStack: [KeyPart] = []
  /// Current nesting of arrays / inline tables.
  var depth = 0
  var recent = RecentStrings()

  init(bytes: [UInt8]) { self.bytes = bytes }

  @inline(__always) var atEnd: Bool { i >= bytes.count }

  /// The byte `k` ahead of the read index, or 0 past the end. NUL bytes in
  /// the input are rejected before parsing, so 0 always means the end.
  @inline(__always) func peek(_ k: Int = 0) -> UInt8 {
    let j = i + k
    return j < bytes.count ? bytes[j] : 0
  }

  /// The position of byte `offset`, which must lie on the current line.
  @inline(__always) mutating func position(_ offset: Int) -> SourcePosition {
    // Four or five positions per `key = value` line: counting columns was a tenth of
    // parsing a large config (docs/reliability.md, "Scale"), and most configs are ASCII.
    guard asciiOnly else { return countedPosition(offset) }
    let target = min(max(offset, lineStart), bytes.count)
    return SourcePosition(line: line, column: target - lineStart + 1, offset: offset)
  }

  /// `position` for input with multi-byte characters: columns count scalars.
  mutating func countedPosition(_ offset: Int) -> SourcePosition {
    let target = min(max(offset, lineStart), bytes.count)
    if target < colCacheOffset || colCacheOffset < lineStart {
      colCacheOffset = lineStart
      colCacheColumn = 1
    }
    var column = colCacheColumn
    var j = colCacheOffset
    while j < target {
      if bytes[j] & 0xC0 != 0x80 { column += 1 }
      j += 1
    }
    colCacheOffset = target
    colCacheColumn = column
    return SourcePosition(line: line, column: column, offset: offset)
  }

  mutating func range(from start: SourcePosition) -> SourceRange {
    SourceRange(start: start, end: position(i))
  }

  mutating func error(_ message: String, at offset: Int) -> TOMLError {
    TOMLError(position: position(offset), message: message)
  }

  /// Records that the byte at `offset` is a line feed.
  @inline(__always) mutating func newline(at offset: Int) {
    line += 1
    lineStart = offset + 1
  }

  /// A short description of the character at `offset`, for error messages.
  func describe(at offset: Int) -> String {
    guard offset < bytes.count else { return "end of file" }
    let b = bytes[offset]
    switch b {
    case ASCII.lf: return "a newline"
    case ASCII.cr: return "a carriage return"
    case ASCII.tab: return "a tab"
    case ASCII.space: return "a space"
    case 0x21...0x7E: return "'\(Character(Unicode.Scalar(b)))'"
    default:
      let scalar = decodeScalar(at: offset)
      switch scalar.properties.generalCategory {
      case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
        .unassigned, .privateUse, .surrogate:
        // Invisible or ambiguous on screen: name it by code point.
        return "U+" + hex(scalar.value, width: 4)
      default:
        if b < 0x80 { return "U+" + hex(scalar.value, width: 4) }
      }
      return "'\(Character(scalar))'"
    }
  }

  /// Decodes the scalar starting at `offset` (the bytes are valid UTF-8).
  func decodeScalar(at offset: Int) -> Unicode.Scalar {
    var iterator = bytes[offset...].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
    return "\u{FFFD}"
  }

  // MARK: - Whitespace, comments, line ends

  @inline(__always) mutating func skipWhitespace() {
    while i < bytes.count, bytes[i] == ASCII.space || bytes[i] == ASCII.tab { i += 1 }
  }

  /// Skips a `#` comment up to (not including) the line end, rejecting
  /// control characters.
  mutating func skipComment() throws(TOMLError) {
    i += 1
    while i < bytes.count {
      let b = bytes[i]
      if b == ASCII.lf { return }
      if b == ASCII.cr {
        if peek(1) == ASCII.lf { return }
        throw error("bare carriage return in a comment (a line ending is \\n or \\r\\n)", at: i)
      }
      if (b < 0x20 && b != ASCII.tab) || b == ASCII.del {
        throw error("control character \(describe(at: i)) is not allowed in a comment", at: i)
      }
      i += 1
    }
  }

  /// Consumes one line ending (`\n` or `\r\n`) if there is one.
  mutating func consumeNewline() throws(TOMLError) -> Bool {
    if peek() == ASCII.lf {
      newline(at: i)
      i += 1
      return true
    }
    if peek() == ASCII.cr {
      guard peek(1) == ASCII.lf else {
        throw error("bare carriage return (a line ending is \\n or \\r\\n)", at: i)
      }
      newline(at: i + 1)
      i += 2
      return true
    }
    return false
  }

  /// After a key/value pair or header: optional whitespace and comment,
  /// then a line ending or the end of the file.
  mutating func expectLineEnd(after what: String) throws(TOMLError) {
    skipWhitespace()
    if peek() == ASCII.hash { try skipComment() }
    if atEnd { return }
    if try consumeNewline() { return }
    throw error("expected a newline after \(what), found \(describe(at: i))", at: i)
  }

  /// Whitespace, comments and newlines, as allowed inside arrays.
  mutating func skipBlankAndComments() throws(TOMLError) {
    while true {
      skipWhitespace()
      if peek() == ASCII.hash {
        try skipComment()
      } else if !(try consumeNewline()) {
        return
      }
    }
  }

  // MARK: - Input checks

  /// Checks the bytes are UTF-8 (no overlongs, surrogates or values past
  /// U+10FFFF) and contain no NUL, keeping line numbers for the error.
  mutating func validateUTF8() throws(TOMLError) {
    var j = 0
    let n = bytes.count
    while j < n {
      let b = bytes[j]
      if b < 0x80 {
        if b == ASCII.lf { newline(at: j) }
        j += 1
        continue
      }
      var need = 0
      var minimum: UInt32 = 0
      var value: UInt32 = 0
      switch b {
      case 0xC2...0xDF:
        need = 1
        minimum = 0x80
        value = UInt32(b & 0x1F)
      case 0xE0...0xEF:
        need = 2
        minimum = 0x800
        value = UInt32(b & 0x0F)
      case 0xF0...0xF4:
        need = 3
        minimum = 0x10000
        value = UInt32(b & 0x07)
      default: throw invalidUTF8(at: j)
      }
      guard j + need < n else { throw invalidUTF8(at: j) }
      for k in 1...need {
        let c = bytes[j + k]
        guard c & 0xC0 == 0x80 else { throw invalidUTF8(at: j) }
        value = value << 6 | UInt32(c & 0x3F)
      }
      if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
        throw invalidUTF8(at: j)
      }
      j += need + 1
    }
    line = 1
    lineStart = 0
    colCacheOffset = 0
    colCacheColumn = 1
  }

  mutating func invalidUTF8(at offset: Int) -> TOMLError {
    // Columns count scalars; count the bytes before the bad one on this line
    // without decoding the bad sequence itself.
    var column = 1
    var j = lineStart
    while j < offset {
      if bytes[j] & 0xC0 != 0x80 { column += 1 }
      j += 1
    }
    return TOMLError(
      position: SourcePosition(line: line, column: column, offset: offset),
      message: "invalid utf-8 byte 0x\(hex(UInt32(bytes[offset]), width: 2))")
  }
}

/// Upper-case hex digits of `value`, zero-padded to `width`.
func hex(_ value: UInt32, width: Int) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
