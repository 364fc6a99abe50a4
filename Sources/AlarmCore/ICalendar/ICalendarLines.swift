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
  /// The unfolded text: the bytes with line ends and folds removed, and where
  /// each content line is (its range, and the physical line it starts on).
  struct Unfolded {
    var bytes: [UInt8] = []
    var lines: [(line: Int, range: Range<Int>)] = []
  }

  /// Unfolds `input`. A BOM is dropped; CRLF, LF and lone CR all end a line.
  static func unfold(_ input: some Collection<UInt8>) -> Unfolded {
    var input = Array(input)
    if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }
    var result = Unfolded()
    result.bytes.reserveCapacity(input.count)
    var start = 0
    var startLine = 1
    var physical = 1
    var i = 0
    while i < input.count {
      // Copy the run up to the next line end in one go.
      let runEnd = input[i...].firstIndex { $0 == 0x0D || $0 == 0x0A } ?? input.count
      result.bytes.append(contentsOf: input[i..<runEnd])
      i = runEnd
      guard i < input.count else { break }
      let byte = input[i]
      i += byte == 0x0D && i + 1 < input.count && input[i + 1] == 0x0A ? 2 : 1
      physical += 1
      // Blank lines between a line and its continuation (old Mozilla exports)
      // are part of the fold, as icalendar reads them.
      var next = i
      var blank = 0
      while next < input.count, input[next] == 0x0D || input[next] == 0x0A {
        if input[next] == 0x0A || next + 1 == input.count || input[next + 1] != 0x0A { blank += 1 }
        next += 1
      }
      if next < input.count, input[next] == 0x20 || input[next] == 0x09 {
        i = next + 1  // a fold: the break and one white-space character vanish
        physical += blank
        continue
      }
      if result.bytes.count > start { result.lines.append((startLine, start..<result.bytes.count)) }
      start = result.bytes.count
      startLine = physical
    }
    if result.bytes.count > start { result.lines.append((startLine, start..<result.bytes.count)) }
    return result
  }

  /// The properties the reader uses; other lines are only checked for a `:`,
  /// so long DESCRIPTIONs and X- properties cost no strings.
  static let used: Set<String> = [
    "BEGIN", "END", "UID", "SUMMARY", "STATUS", "DTSTART", "DTEND", "DURATION",
    "RECURRENCE-ID", "RRULE", "EXDATE", "RDATE", "SEQUENCE",
  ]

  /// Parses the content line at `range`; nil when it has no unquoted `:` or no
  /// name. A property the reader does not use comes back with no value.
  static func parse(_ bytes: [UInt8], _ range: Range<Int>, line: Int) -> ContentLine? {
    var i = range.lowerBound
    let end = range.upperBound
    while i < end, bytes[i] != UInt8(ascii: ";"), bytes[i] != UInt8(ascii: ":") { i += 1 }
    guard i > range.lowerBound, i < end else { return nil }
    let name = upper(bytes[range.lowerBound..<i])
    let used = Self.used.contains(name)
    var parameters: [String: String] = [:]
    while i < end, bytes[i] == UInt8(ascii: ";") {
      i += 1
      let nameStart = i
      while i < end, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ":"),
        bytes[i] != UInt8(ascii: ";")
      {
        i += 1
      }
      let nameEnd = i
      var value: [UInt8] = []
      if i < end, bytes[i] == UInt8(ascii: "=") {
        i += 1
        var quoted = false
        while i < end {
          let b = bytes[i]
          if b == UInt8(ascii: "\"") {
            quoted.toggle()
          } else if !quoted && (b == UInt8(ascii: ":") || b == UInt8(ascii: ";")) {
            break
          } else if used {
            value.append(b)
          }
          i += 1
        }
      }
      if used {
        let paramName = upper(bytes[nameStart..<nameEnd])
        if parameters[paramName] == nil {
          parameters[paramName] = String(decoding: value, as: UTF8.self)
        }
      }
    }
    guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
    let valueBytes = bytes[(i + 1)..<end]
    let value =
      name == "BEGIN" || name == "END"
      ? upper(valueBytes) : used ? String(decoding: valueBytes, as: UTF8.self) : ""
    return ContentLine(name: name, parameters: parameters, value: value, line: line)
  }

  /// ASCII upper case (names are ASCII; `String.uppercased` is far slower).
  private static func upper(_ bytes: ArraySlice<UInt8>) -> String {
    guard bytes.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    return String(decoding: bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
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
