import TOML

/// What decoding collects as it goes: every diagnostic and the position of every value.
final class DecodeState {
  var diagnostics: [Diagnostic] = []
  private(set) var errorCount = 0
  /// The config file's directory: relative `skip_calendars` paths are resolved against it.
  var base: String?
  /// Where each `skip_calendars` file (resolved) is first named, for errors reading it.
  var calendarPositions: [String: SourcePosition] = [:]

  func error(_ position: SourcePosition, _ message: String) {
    diagnostics.append(Diagnostic(.error, at: position, message))
    errorCount += 1
  }

  func warning(_ position: SourcePosition, _ message: String) {
    diagnostics.append(Diagnostic(.warning, at: position, message))
  }
}

/// Reads the keys of one table with typed accessors that report wrong types and
/// values instead of failing, so one pass finds every problem of a file.
struct TableReader {
  let table: TOMLTable
  /// How messages name the table: `[defaults]`, `[[alarm]]`; empty for the root.
  let section: String
  /// Where "missing key" errors point: the header, or the table's own position.
  let anchor: SourcePosition
  let state: DecodeState
  /// Bit `n` is set when the table has a key of `n` UTF-8 bytes (bit 63: 63 or more).
  /// A decoder asks each table for every key it knows, most of them absent, and most
  /// absent ones differ in length from every key present: they are answered without
  /// a scan (the scans were a tenth of decoding a large config).
  private let keyLengths: UInt64

  /// Reports every key not in `known` (with a suggestion) right away.
  init(
    _ table: TOMLTable, section: String, anchor: SourcePosition,
    known: [String], state: DecodeState
  ) {
    self.table = table
    self.section = section
    self.anchor = anchor
    self.state = state
    var keyLengths: UInt64 = 0
    for entry in table.entries {
      keyLengths |= TableReader.lengthBit(entry.key)
    }
    self.keyLengths = keyLengths
    for entry in table.entries where !TableReader.contains(known, entry.key) {
      // Written as TOML would (a quoted key's controls escaped) and cut: safe to print.
      let key = TOMLFormat.excerpt(TOMLFormat.key(entry.key))
      var message =
        section.isEmpty ? "unknown top-level key '\(key)'" : "unknown key '\(key)' in \(section)"
      if let guess = Suggestion.closest(to: entry.key, in: known) {
        message += "; did you mean '\(guess)'?"
      }
      state.error(entry.keyRange.start, message)
    }
  }

  /// The entry for `key`.
  func entry(_ key: String) -> TOMLEntry? {
    keyLengths & TableReader.lengthBit(key) == 0 ? nil : table.entry(key)
  }

  @inline(__always) private static func lengthBit(_ key: String) -> UInt64 {
    1 << UInt64(min(key.utf8.count, 63))
  }

  /// Whether `keys` holds `key`, comparing lengths before the strings (an unknown-key
  /// check per key of every table; most known keys differ in length).
  private static func contains(_ keys: [String], _ key: String) -> Bool {
    let length = key.utf8.count
    return keys.contains { $0.utf8.count == length && $0 == key }
  }

  /// Reports `'key' must be EXPECTATION, not ACTUAL` at the value.
  func mismatch(_ entry: TOMLEntry, _ expectation: String, actual: String? = nil) {
    let actual = actual ?? entry.node.value.kindDescription
    state.error(entry.node.range.start, "'\(entry.key)' must be \(expectation), not \(actual)")
  }

  /// The longest path accepted (PATH_MAX less its NUL), in UTF-8 bytes.
  static let maxPathBytes = 4095
  /// The longest name accepted (a device, mixer control, chip or time zone), in UTF-8 bytes.
  static let maxNameBytes = 255

  /// A string of at most `maxBytes` UTF-8 bytes: every string reaches the state file, a
  /// control reply or a log line, and a huge one would break them.
  func string(
    _ key: String, nonEmpty: Bool = true, maxBytes: Int, expectation: String = "a string"
  ) -> String? {
    guard let entry = entry(key) else { return nil }
    guard case .string(let text) = entry.node.value else {
      mismatch(entry, expectation)
      return nil
    }
    if nonEmpty && text.isEmpty {
      state.error(entry.node.range.start, "'\(key)' must not be empty")
      return nil
    }
    guard checkLength(text, maxBytes: maxBytes, at: entry.node.range.start, what: "'\(key)'")
    else { return nil }
    return text
  }

  /// Reports a string longer than `maxBytes` UTF-8 bytes; true when it is short enough.
  /// `what` is built only for the message (interpolating it on every read was a
  /// twentieth of decoding a large config).
  func checkLength(
    _ text: String, maxBytes: Int, at position: SourcePosition, what: @autoclosure () -> String
  ) -> Bool {
    let bytes = text.utf8.count
    guard bytes > maxBytes else { return true }
    state.error(position, "\(what()) is too long: \(bytes) bytes, at most \(maxBytes)")
    return false
  }

  func bool(_ key: String) -> Bool? {
    guard let entry = entry(key) else { return nil }
    guard case .boolean(let value) = entry.node.value else {
      mismatch(entry, "true or false")
      return nil
    }
    return value
  }

  func integer(_ key: String, in range: ClosedRange<Int64>) -> Int64? {
    guard let entry = entry(key) else { return nil }
    // Computed only for a message: interpolating on every read costs a 10,000-alarm file.
    var expectation: String { "an integer from \(range.lowerBound) to \(range.upperBound)" }
    guard case .integer(let value) = entry.node.value else {
      mismatch(entry, expectation)
      return nil
    }
    guard range.contains(value) else {
      mismatch(entry, expectation, actual: String(value))
      return nil
    }
    return value
  }

  /// A list of non-empty strings. A single string is not a list (and is reported).
  func stringList(_ key: String, maxBytes: Int, expectation: String) -> [String]? {
    guard let entry = entry(key) else { return nil }
    guard case .array(let array) = entry.node.value else {
      mismatch(entry, expectation)
      return nil
    }
    var out: [String] = []
    var ok = true
    for element in array.elements {
      guard case .string(let text) = element.value, !text.isEmpty else {
        let actual =
          element.value == .string("") ? "an empty string" : element.value.kindDescription
        state.error(
          element.range.start, "'\(key)' entries must be non-empty strings, not \(actual)")
        ok = false
        continue
      }
      guard checkLength(text, maxBytes: maxBytes, at: element.range.start, what: "'\(key)' entry")
      else {
        ok = false
        continue
      }
      out.append(text)
    }
    return ok ? out : nil
  }

  /// A duration string checked against `range`. `examples` shows the accepted form.
  func duration(
    _ key: String, in range: ClosedRange<Duration>, wholeSeconds: Bool = true,
    examples: String = "\"30s\", \"9m\" or \"1h30m\""
  ) -> Duration? {
    guard let entry = entry(key) else { return nil }
    return duration(entry, in: range, wholeSeconds: wholeSeconds, examples: examples)
  }

  func duration(
    _ entry: TOMLEntry, in range: ClosedRange<Duration>, wholeSeconds: Bool = true,
    examples: String = "\"30s\", \"9m\" or \"1h30m\""
  ) -> Duration? {
    var expectation: String { "a duration like \(examples)" }
    switch entry.node.value {
    case .string(let text):
      guard let value = DurationText.parse(text) else {
        mismatch(entry, expectation, actual: quoted(text))
        return nil
      }
      if wholeSeconds && value.components.attoseconds != 0 {
        mismatch(entry, "a whole number of seconds", actual: text)
        return nil
      }
      guard range.contains(value) else {
        let bounds =
          "between \(DurationText.format(range.lowerBound)) and "
          + DurationText.format(range.upperBound)
        mismatch(entry, bounds, actual: text)
        return nil
      }
      return value
    case .integer(let n):
      mismatch(entry, expectation, actual: "the bare number \(n) (write \"\(n)s\" for seconds)")
      return nil
    default:
      mismatch(entry, expectation)
      return nil
    }
  }

  /// One of `choices` (a string), with a suggestion when it is close to one.
  func choice<T: RawRepresentable & CaseIterable>(_ key: String, of type: T.Type) -> T?
  where T.RawValue == String {
    guard let entry = entry(key) else { return nil }
    let names = T.allCases.map(\.rawValue)
    var expectation: String { listing(names.map(quoted)) }
    guard case .string(let text) = entry.node.value else {
      mismatch(entry, expectation)
      return nil
    }
    guard let value = T(rawValue: text) else {
      var message = "'\(key)' must be \(expectation), not \(quoted(text))"
      if let guess = Suggestion.closest(to: text, in: names) {
        message += "; did you mean \(quoted(guess))?"
      }
      state.error(entry.node.range.start, message)
      return nil
    }
    return value
  }
}

/// `"a", "b" or "c"`.
func listing(_ items: [String]) -> String {
  guard items.count > 1 else { return items.first ?? "" }
  return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
}

/// A string as TOML would write it (`"06:45"`, escaped), for messages: cut after 40
/// characters with `…` after the closing quote, so a huge value is not echoed whole.
func quoted(_ text: String) -> String {
  let shown = TOMLFormat.excerpt(text)
  guard shown.utf8.count < text.utf8.count else { return TOMLFormat.quoted(text) }
  return TOMLFormat.quoted(String(shown.dropLast())) + "…"
}
