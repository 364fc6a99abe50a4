/// The four string kinds and their escapes.
extension Parser {
  /// `"..."`, with `i` at the opening quote.
  mutating func parseBasicString() throws(TOMLError) -> String {
    let open = position(i)
    i += 1
    let contentStart = i
    // Fast path: no escapes means the content is the bytes as written.
    while i < bytes.count {
      let b = bytes[i]
      if b == ASCII.quote {
        let s = recent.string(bytes, contentStart..<i)
        i += 1
        return s
      }
      if b == ASCII.backslash { break }
      try checkStringByte(b, multiline: false, open: open)
      i += 1
    }
    var buffer = Array(bytes[contentStart..<i])
    while i < bytes.count {
      let b = bytes[i]
      if b == ASCII.quote {
        i += 1
        return String(decoding: buffer, as: UTF8.self)
      }
      if b == ASCII.backslash {
        try parseEscape(into: &buffer, multiline: false)
        continue
      }
      try checkStringByte(b, multiline: false, open: open)
      buffer.append(b)
      i += 1
    }
    throw error("unterminated string (opened at \(open))", at: i)
  }

  /// `'...'`, with `i` at the opening apostrophe.
  mutating func parseLiteralString() throws(TOMLError) -> String {
    let open = position(i)
    i += 1
    let contentStart = i
    while i < bytes.count {
      let b = bytes[i]
      if b == ASCII.apostrophe {
        let s = recent.string(bytes, contentStart..<i)
        i += 1
        return s
      }
      try checkStringByte(b, multiline: false, open: open)
      i += 1
    }
    throw error("unterminated string (opened at \(open))", at: i)
  }

  /// `"""..."""` or `'''...'''`, with `i` at the first delimiter.
  mutating func parseMultilineString(literal: Bool) throws(TOMLError) -> String {
    let open = position(i)
    let delimiter = literal ? ASCII.apostrophe : ASCII.quote
    i += 3
    // A newline right after the opening delimiter is trimmed.
    _ = try consumeNewline()
    var buffer: [UInt8] = []
    while i < bytes.count {
      let b = bytes[i]
      if b == delimiter {
        var run = 0
        while i + run < bytes.count, bytes[i + run] == delimiter { run += 1 }
        if run >= 3 {
          // Up to two delimiter characters may sit right before the close.
          if run > 5 {
            throw error("too many quotes at the end of a multi-line string", at: i + 5)
          }
          buffer.append(contentsOf: repeatElement(delimiter, count: run - 3))
          i += run
          return String(decoding: buffer, as: UTF8.self)
        }
        buffer.append(contentsOf: repeatElement(delimiter, count: run))
        i += run
        continue
      }
      if b == ASCII.backslash && !literal {
        try parseEscape(into: &buffer, multiline: true)
        continue
      }
      if b == ASCII.lf || b == ASCII.cr {
        _ = try consumeNewline()
        buffer.append(ASCII.lf)
        continue
      }
      try checkStringByte(b, multiline: true, open: open)
      buffer.append(b)
      i += 1
    }
    throw error("unterminated multi-line string (opened at \(open))", at: i)
  }

  /// Rejects control characters (tab is allowed) and, in single-line
  /// strings, line breaks.
  @inline(__always)
  mutating func checkStringByte(_ b: UInt8, multiline: Bool, open: SourcePosition)
    throws(TOMLError)
  {
    guard b < 0x20 || b == ASCII.del, b != ASCII.tab else { return }
    if !multiline && (b == ASCII.lf || b == ASCII.cr) {
      throw error(
        "unterminated string (opened at \(open)); use a multi-line string for line breaks",
        at: i)
    }
    throw error(
      "control character \(describe(at: i)) is not allowed in a string; write it as an escape",
      at: i)
  }

  /// An escape sequence, with `i` at the backslash.
  mutating func parseEscape(into buffer: inout [UInt8], multiline: Bool) throws(TOMLError) {
    let backslash = i
    let c = peek(1)
    let simple: UInt8?
    switch c {
    case 0x62: simple = 0x08  // \b
    case 0x74: simple = 0x09  // \t
    case 0x6E: simple = 0x0A  // \n
    case 0x66: simple = 0x0C  // \f
    case 0x72: simple = 0x0D  // \r
    case ASCII.quote: simple = ASCII.quote
    case ASCII.backslash: simple = ASCII.backslash
    default: simple = nil
    }
    if let simple {
      buffer.append(simple)
      i += 2
      return
    }
    if c == 0x75 || c == 0x55 {  // \u, \U
      try parseUnicodeEscape(into: &buffer, digits: c == 0x75 ? 4 : 8)
      return
    }
    if multiline && (c == ASCII.space || c == ASCII.tab || c == ASCII.lf || c == ASCII.cr) {
      // Line-ending backslash: only whitespace may follow it on its line;
      // then all whitespace and newlines up to the next text are trimmed.
      i += 1
      skipWhitespace()
      guard try consumeNewline() else {
        throw error(
          "invalid escape '\\ ': a backslash may only be followed by "
            + "whitespace at the end of a line", at: backslash)
      }
      while true {
        skipWhitespace()
        if !(try consumeNewline()) { break }
      }
      return
    }
    if i + 1 >= bytes.count {
      throw error("unterminated string: it ends in a backslash", at: backslash)
    }
    let shown: String
    if c >= 0x21 && c <= 0x7E {
      shown = "'\\\(Character(Unicode.Scalar(c)))'"
    } else {
      shown = "'\\' followed by \(describe(at: i + 1))"
    }
    throw error("invalid escape \(shown) in string", at: backslash)
  }

  /// `\uXXXX` / `\UXXXXXXXX`, with `i` at the backslash.
  mutating func parseUnicodeEscape(into buffer: inout [UInt8], digits: Int) throws(TOMLError) {
    let backslash = i
    let letter = digits == 4 ? "u" : "U"
    var value: UInt32 = 0
    for k in 0..<digits {
      let h = peek(2 + k)
      let d: UInt8
      switch h {
      case 0x30...0x39: d = h - 0x30
      case 0x41...0x46: d = h - 0x41 + 10
      case 0x61...0x66: d = h - 0x61 + 10
      default:
        throw error(
          "invalid escape: '\\\(letter)' needs exactly \(digits) hex digits", at: backslash)
      }
      value = value << 4 | UInt32(d)
    }
    guard let scalar = Unicode.Scalar(value) else {
      throw error(
        "invalid escape '\\\(letter)\(hex(value, width: digits))': "
          + "not a unicode scalar value (surrogates and values above 10FFFF are not allowed)",
        at: backslash)
    }
    if let encoded = UTF8.encode(scalar) { buffer.append(contentsOf: encoded) }
    i += 2 + digits
  }
}
