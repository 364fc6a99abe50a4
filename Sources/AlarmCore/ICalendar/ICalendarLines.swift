/// RFC 5545 content lines: unfolding, then `NAME;PARAM=value:VALUE` splitting.
/// Works on bytes so a fold that splits a UTF-8 sequence joins back intact.

/// One unfolded content line.
struct ContentLine {
  /// Upper-cased property name (`DTSTART`, `BEGIN`, `X-APPLE-...`).
  var name: String
  /// Parameters by upper-cased name; quotes removed.
  var parameters: [String: String]
  /// The raw value after the first unquoted `:` (not unescaped).
  var value: String
  /// The 1-based physical line the content line starts on.
  var line: Int

  func parameter(_ name: String) -> String? { parameters[name] }
}

enum ContentLineReader {
  /// Splits `bytes` into unfolded lines, each with the physical line it starts on.
  /// A BOM is dropped; CRLF, LF and lone CR all end a line.
  static func unfold(_ bytes: some Collection<UInt8>) -> [(line: Int, bytes: [UInt8])] {
    var input = Array(bytes)
    if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }
    var result: [(line: Int, bytes: [UInt8])] = []
    var current: [UInt8] = []
    var currentLine = 1
    var physical = 1
    var i = 0
    var started = false
    while i < input.count {
      let byte = input[i]
      guard byte == 0x0D || byte == 0x0A else {
        current.append(byte)
        started = true
        i += 1
        continue
      }
      i += byte == 0x0D && i + 1 < input.count && input[i + 1] == 0x0A ? 2 : 1
      physical += 1
      if i < input.count, input[i] == 0x20 || input[i] == 0x09 {
        i += 1  // a fold: the break and one white-space character vanish
        continue
      }
      if started { result.append((currentLine, current)) }
      current.removeAll(keepingCapacity: true)
      started = false
      currentLine = physical
    }
    if started { result.append((currentLine, current)) }
    return result
  }

  /// Parses one unfolded line; nil when it has no unquoted `:` or no name.
  static func parse(_ bytes: [UInt8], line: Int) -> ContentLine? {
    var i = 0
    while i < bytes.count, bytes[i] != UInt8(ascii: ";"), bytes[i] != UInt8(ascii: ":") { i += 1 }
    guard i > 0, i < bytes.count else { return nil }
    let name = String(decoding: bytes[0..<i], as: UTF8.self).uppercased()
    var parameters: [String: String] = [:]
    while i < bytes.count, bytes[i] == UInt8(ascii: ";") {
      i += 1
      let nameStart = i
      while i < bytes.count, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ":"),
        bytes[i] != UInt8(ascii: ";")
      {
        i += 1
      }
      let paramName = String(decoding: bytes[nameStart..<i], as: UTF8.self).uppercased()
      var value: [UInt8] = []
      if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
        i += 1
        var quoted = false
        while i < bytes.count {
          let b = bytes[i]
          if b == UInt8(ascii: "\"") {
            quoted.toggle()
          } else if !quoted && (b == UInt8(ascii: ":") || b == UInt8(ascii: ";")) {
            break
          } else {
            value.append(b)
          }
          i += 1
        }
      }
      if parameters[paramName] == nil {
        parameters[paramName] = String(decoding: value, as: UTF8.self)
      }
    }
    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
    let value = String(decoding: bytes[(i + 1)...], as: UTF8.self)
    return ContentLine(name: name, parameters: parameters, value: value, line: line)
  }
}

/// Value decoding for the few types an all-day event needs.
enum ICalendarValue {
  /// TEXT unescaping: `\,` `\;` `\n` `\N` `\\`; an unknown escape keeps its character.
  static func text(_ raw: String) -> String {
    guard raw.contains("\\") else { return raw }
    var out = ""
    var escaped = false
    for c in raw {
      if escaped {
        out.append(c == "n" || c == "N" ? "\n" : c)
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else {
        out.append(c)
      }
    }
    if escaped { out.append("\\") }
    return out
  }

  /// A DATE or DATE-TIME value: the date, and whether a time followed it.
  /// `20271224` is a date; `20271224T090000`, `...Z` a date-time; else nil.
  static func dateOrDateTime(_ raw: String) -> (date: LocalDate, timed: Bool)? {
    let bytes = Array(raw.utf8)
    guard bytes.count >= 8, bytes[0..<8].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    func number(_ range: Range<Int>) -> Int {
      bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
    let date = LocalDate(year: number(0..<4), month: number(4..<6), day: number(6..<8))
    guard date.isValid else { return nil }
    if bytes.count == 8 { return (date, false) }
    let time = bytes[8...]
    guard time.first == UInt8(ascii: "T"), time.count == 7 || time.count == 8,
      time.dropFirst().prefix(6).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      time.count == 7 || time.last == UInt8(ascii: "Z")
    else { return nil }
    return (date, true)
  }

  /// A DURATION in whole days (`P1D`, `P2W`, `P1DT0H`); a time part counts as
  /// a started day. nil for a malformed or negative duration.
  static func durationDays(_ raw: String) -> Int? {
    var text = Substring(raw.uppercased())
    if text.hasPrefix("+") { text = text.dropFirst() }
    guard text.hasPrefix("P") else { return nil }
    text = text.dropFirst()
    var days = 0
    var seconds = 0
    var number = ""
    var inTime = false
    var sawUnit = false
    for c in text {
      if c.isASCII, c.isNumber {
        number.append(c)
        continue
      }
      if c == "T", number.isEmpty, !inTime {
        inTime = true
        continue
      }
      guard let n = Int(number), n < 1_000_000 else { return nil }
      number = ""
      sawUnit = true
      switch (c, inTime) {
      case ("W", false): days += n * 7
      case ("D", false): days += n
      case ("H", true): seconds += n * 3600
      case ("M", true): seconds += n * 60
      case ("S", true): seconds += n
      default: return nil
      }
    }
    guard number.isEmpty, sawUnit else { return nil }
    return days + (seconds + 86399) / 86400
  }
}
