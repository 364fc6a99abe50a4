/// Integers and floats.
extension Parser {
  /// A number, date or time; `i` is at a digit or sign.
  mutating func parseNumberOrDate() throws(TOMLError) -> TOMLValue {
    if ASCII.isDigit(peek()) {
      if ASCII.isDigit(peek(1)), ASCII.isDigit(peek(2)), ASCII.isDigit(peek(3)),
        peek(4) == ASCII.minus
      {
        return try parseDateOrDateTime()
      }
      if ASCII.isDigit(peek(1)), peek(2) == ASCII.colon {
        return .localTime(try parseTime())
      }
    }
    let s = i
    while i < bytes.count {
      let b = bytes[i]
      guard ASCII.isBareKey(b) || b == ASCII.dot || b == ASCII.plus else { break }
      // A sign only belongs to the number right after an exponent marker.
      if (b == ASCII.plus || b == ASCII.minus) && i > s {
        let prev = bytes[i - 1]
        guard prev == 0x65 || prev == 0x45 else { break }
      }
      i += 1
    }
    return try parseNumber(s..<i)
  }

  private mutating func numberError(_ what: String, _ token: Range<Int>, at offset: Int)
    -> TOMLError
  {
    error("invalid \(what) '\(text(token))'", at: offset)
  }

  mutating func parseNumber(_ token: Range<Int>) throws(TOMLError) -> TOMLValue {
    var j = token.lowerBound
    let end = token.upperBound
    var negative = false
    var signed = false
    if bytes[j] == ASCII.plus || bytes[j] == ASCII.minus {
      negative = bytes[j] == ASCII.minus
      signed = true
      j += 1
    }
    let rest = bytes[j..<end]
    if rest.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
    if rest.elementsEqual("nan".utf8) { return .float(negative ? -.nan : .nan) }
    guard j < end, ASCII.isDigit(bytes[j]) else {
      throw numberError("number", token, at: j)
    }

    // 0x / 0o / 0b integers: no sign, underscores between digits.
    if bytes[j] == ASCII.zero, j + 1 < end {
      let radix: Int64
      switch bytes[j + 1] {
      case 0x78: radix = 16
      case 0x6F: radix = 8
      case 0x62: radix = 2
      default: radix = 0
      }
      if radix != 0 {
        if signed {
          throw error(
            "a sign is not allowed on a hex, octal or binary integer", at: token.lowerBound)
        }
        return .integer(try parseRadixInteger(token, digitsFrom: j + 2, radix: radix))
      }
    }

    // Decimal: integer part, optional fraction, optional exponent.
    let intStart = j
    j = try scanDigits(from: j, end: end, token: token)
    if bytes[intStart] == ASCII.zero && j - intStart > 1 {
      throw error("leading zeros are not allowed in '\(text(token))'", at: intStart)
    }
    var isFloat = false
    if j < end && bytes[j] == ASCII.dot {
      isFloat = true
      j += 1
      guard j < end, ASCII.isDigit(bytes[j]) else {
        throw error("expected a digit after the decimal point in '\(text(token))'", at: j)
      }
      j = try scanDigits(from: j, end: end, token: token)
    }
    if j < end && (bytes[j] == 0x65 || bytes[j] == 0x45) {
      isFloat = true
      j += 1
      if j < end && (bytes[j] == ASCII.plus || bytes[j] == ASCII.minus) { j += 1 }
      guard j < end, ASCII.isDigit(bytes[j]) else {
        throw error("expected digits in the exponent of '\(text(token))'", at: j)
      }
      j = try scanDigits(from: j, end: end, token: token)
    }
    if j < end {
      throw numberError(isFloat ? "float" : "number", token, at: j)
    }
    var digits: [UInt8] = []
    digits.reserveCapacity(token.count)
    for b in bytes[token] where b != ASCII.underscore { digits.append(b) }
    if isFloat {
      guard let d = Double(String(decoding: digits, as: UTF8.self)) else {
        throw numberError("float", token, at: token.lowerBound)
      }
      return .float(d)
    }
    var value: Int64 = 0
    for b in digits where ASCII.isDigit(b) {
      let d = Int64(b - ASCII.zero)
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (r, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
      if o1 || o2 {
        throw error("integer \(text(token)) does not fit in 64 bits", at: token.lowerBound)
      }
      value = r
    }
    return .integer(value)
  }

  /// The token as echoed in a message: at most 40 characters (a number can be long).
  func text(_ token: Range<Int>) -> String {
    // Only a bounded prefix is decoded: the excerpt needs no more.
    let end = min(token.upperBound, token.lowerBound + 4 * 41)
    let cut = end < token.upperBound
    let shown = TOMLFormat.excerpt(String(decoding: bytes[token.lowerBound..<end], as: UTF8.self))
    return cut && !shown.hasSuffix("…") ? shown + "…" : shown
  }

  /// Decimal digits with single underscores between them; returns the end.
  private mutating func scanDigits(from start: Int, end: Int, token: Range<Int>)
    throws(TOMLError) -> Int
  {
    var j = start
    while j < end {
      let b = bytes[j]
      if ASCII.isDigit(b) {
        j += 1
      } else if b == ASCII.underscore {
        guard j + 1 < end, ASCII.isDigit(bytes[j + 1]) else {
          throw error("an underscore in a number must sit between two digits", at: j)
        }
        j += 1
      } else {
        break
      }
    }
    return j
  }

  private mutating func parseRadixInteger(_ token: Range<Int>, digitsFrom start: Int, radix: Int64)
    throws(TOMLError) -> Int64
  {
    let end = token.upperBound
    let name = radix == 16 ? "hex" : radix == 8 ? "octal" : "binary"
    guard start < end, digitValue(bytes[start], radix: radix) != nil else {
      throw error("expected \(name) digits in '\(text(token))'", at: start)
    }
    var value: Int64 = 0
    var j = start
    while j < end {
      let b = bytes[j]
      if b == ASCII.underscore {
        guard j + 1 < end, digitValue(bytes[j + 1], radix: radix) != nil else {
          throw error("an underscore in a number must sit between two digits", at: j)
        }
        j += 1
        continue
      }
      guard let d = digitValue(b, radix: radix) else {
        throw error("invalid \(name) digit \(describe(at: j)) in '\(text(token))'", at: j)
      }
      let (m, o1) = value.multipliedReportingOverflow(by: radix)
      let (r, o2) = m.addingReportingOverflow(d)
      if o1 || o2 {
        throw error("integer \(text(token)) does not fit in 64 bits", at: token.lowerBound)
      }
      value = r
      j += 1
    }
    return value
  }

  private func digitValue(_ b: UInt8, radix: Int64) -> Int64? {
    let d: Int64
    switch b {
    case 0x30...0x39: d = Int64(b - 0x30)
    case 0x41...0x46: d = Int64(b - 0x41 + 10)
    case 0x61...0x66: d = Int64(b - 0x61 + 10)
    default: return nil
    }
    return d < radix ? d : nil
  }
}
