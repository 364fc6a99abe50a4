/// A small, strict JSON reader and writer for the control protocol and the
/// state file. Pure Swift (no Foundation): bounded nesting, integers checked
/// for overflow, and no input can trap. Output is deterministic: object keys
/// sorted, no whitespace unless `pretty`, never a raw newline inside a value.

/// A JSON value. Numbers keep whether they were written as integers.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The member of an object, nil for anything else or a missing key.
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The name of the value's type, for error messages.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .int, .double: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// Why a text is not JSON, with the byte offset where reading stopped.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  public var offset: Int
  public var reason: String
  public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
  /// Deepest nesting accepted; deeper input is an error, not a stack overflow.
  public static let maxDepth = 64

  /// Parses exactly one JSON value (surrounding whitespace allowed).
  public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
    var reader = JSONReader(bytes: Array(bytes))
    reader.skipSpace()
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.pos == reader.bytes.count else {
      throw reader.fail("unexpected text after the value")
    }
    return value
  }

  /// Serialises the value. Keys are sorted; `pretty` indents by two spaces.
  public func encoded(pretty: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  private func write(to out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += d.isFinite ? "\(d)" : "null"
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (n, item) in items.enumerated() {
        if n > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: " ", count: indent + 2) }
        item.write(to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { out += "\n" + String(repeating: " ", count: indent) }
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (n, key) in members.keys.sorted().enumerated() {
        if n > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: " ", count: indent + 2) }
        JSONValue.writeString(key, to: &out)
        out += pretty ? ": " : ":"
        members[key]!.write(to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { out += "\n" + String(repeating: " ", count: indent) }
      out += "}"
    }
  }

  private static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{2028}", "\u{2029}":
        // Valid in JSON but line breaks to some readers: escape them too.
        out += scalar == "\u{2028}" ? "\\u2028" : "\\u2029"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7f {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

private struct JSONReader {
  let bytes: [UInt8]
  var pos = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: pos, reason: reason) }

  mutating func skipSpace() {
    while pos < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[pos]) { pos += 1 }
  }

  mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < JSONValue.maxDepth else { throw fail("nested deeper than \(JSONValue.maxDepth)") }
    guard pos < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[pos] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw fail("unexpected character")
    }
  }

  mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let w = Array(word.utf8)
    guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else {
      throw fail("unexpected character")
    }
    pos += w.count
    return value
  }

  mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    pos += 1
    var members: [String: JSONValue] = [:]
    skipSpace()
    if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
      pos += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
        throw fail("expected a string key")
      }
      let key = try string()
      guard members[key] == nil else { throw fail("duplicate key \"\(printable(key))\"") }
      skipSpace()
      guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      pos += 1
      skipSpace()
      members[key] = try value(depth: depth + 1)
      skipSpace()
      guard pos < bytes.count else { throw fail("unexpected end of input") }
      if bytes[pos] == UInt8(ascii: ",") {
        pos += 1
        continue
      }
      guard bytes[pos] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
      pos += 1
      return .object(members)
    }
  }

  mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    pos += 1
    var items: [JSONValue] = []
    skipSpace()
    if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
      pos += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value(depth: depth + 1))
      skipSpace()
      guard pos < bytes.count else { throw fail("unexpected end of input") }
      if bytes[pos] == UInt8(ascii: ",") {
        pos += 1
        continue
      }
      guard bytes[pos] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
      pos += 1
      return .array(items)
    }
  }

  mutating func string() throws(JSONSyntaxError) -> String {
    pos += 1
    var scalars = String.UnicodeScalarView()
    var raw: [UInt8] = []  // a run of plain bytes, validated as UTF-8 at the end of the run
    func flush(_ raw: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
      guard !raw.isEmpty else { return true }
      guard let s = String(validating: raw, as: UTF8.self) else { return false }
      scalars.append(contentsOf: s.unicodeScalars)
      raw.removeAll(keepingCapacity: true)
      return true
    }
    while pos < bytes.count {
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        guard flush(&raw, into: &scalars) else { throw fail("string is not valid UTF-8") }
        pos += 1
        return String(scalars)
      }
      if b < 0x20 { throw fail("control character in string") }
      if b != UInt8(ascii: "\\") {
        raw.append(b)
        pos += 1
        continue
      }
      guard flush(&raw, into: &scalars) else { throw fail("string is not valid UTF-8") }
      pos += 1
      guard pos < bytes.count else { break }
      let e = bytes[pos]
      pos += 1
      switch e {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{8}")
      case UInt8(ascii: "f"): scalars.append("\u{c}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
          guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"),
            bytes[pos + 1] == UInt8(ascii: "u")
          else { throw fail("unpaired surrogate") }
          pos += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
          throw fail("unpaired surrogate")
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
        scalars.append(scalar)
      default: throw fail("bad escape")
      }
    }
    throw fail("unterminated string")
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard pos + 4 <= bytes.count else { throw fail("bad \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[pos]
      let d: UInt8
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
      default: throw fail("bad \\u escape")
      }
      v = v * 16 + UInt32(d)
      pos += 1
    }
    return v
  }

  mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = pos
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
    guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("bad number") }
    if bytes[pos] == UInt8(ascii: "0") {
      pos += 1
    } else {
      while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }
    var integral = true
    if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
      integral = false
      pos += 1
      guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("bad number") }
      while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }
    if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
      integral = false
      pos += 1
      if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") {
        pos += 1
      }
      guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("bad number") }
      while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }
    let text = String(decoding: bytes[start..<pos], as: UTF8.self)
    if integral, let i = Int64(text) { return .int(i) }
    // Too big for Int64, or fractional: keep as a double (finite only).
    guard let d = Double(text), d.isFinite else {
      pos = start
      throw fail("number out of range")
    }
    return .double(d)
  }
}
