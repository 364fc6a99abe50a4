/// The TOML 1.0 document model. Pure Swift, no platform imports.
///
/// Every value and key keeps where it came from, so callers can point errors
/// at `line:col` and an editor can rewrite one `[[alarm]]` block in place.

/// An `Int` kept in a narrower integer, saturating at its bounds. Every key and
/// value carries two source positions, and a 10,000-alarm config holds over
/// 100,000 of them: full-width fields doubled the size of the tree.
@propertyWrapper
public struct Narrow<Storage: FixedWidthInteger & Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline var storage: Storage

  @inlinable public init(wrappedValue: Int) { storage = Storage(clamping: wrappedValue) }

  @inlinable public var wrappedValue: Int {
    get { Int(storage) }
    set { storage = Storage(clamping: newValue) }
  }
}

/// A place in the source text. `line` and `column` are 1-based and count
/// Unicode scalars; `offset` is the 0-based UTF-8 byte offset.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  @Narrow<Int32> public var line: Int
  @Narrow<Int32> public var column: Int
  @Narrow<Int32> public var offset: Int

  // Inlined: the parser makes four or five positions a line, and the call was more than
  // the clamping it wraps.
  @inline(__always) public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  public static func < (a: SourcePosition, b: SourcePosition) -> Bool { a.offset < b.offset }
  public var description: String { "\(line):\(column)" }
}

/// A half-open span of source text, `start..<end` in UTF-8 byte offsets.
public struct SourceRange: Hashable, Sendable {
  public var start: SourcePosition
  public var end: SourcePosition

  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }
}

/// A local date (`1979-05-27`). Stored compactly so a `TOMLValue` stays the
/// size of a string.
public struct TOMLLocalDate: Hashable, Sendable {
  @Narrow<Int32> public var year: Int
  @Narrow<UInt8> public var month: Int
  @Narrow<UInt8> public var day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }
}

/// A local time (`07:32:00.999999`). `nanosecond` keeps the fraction.
public struct TOMLLocalTime: Hashable, Sendable {
  @Narrow<UInt8> public var hour: Int
  @Narrow<UInt8> public var minute: Int
  @Narrow<UInt8> public var second: Int
  @Narrow<Int32> public var nanosecond: Int

  public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
    self.hour = hour
    self.minute = minute
    self.second = second
    self.nanosecond = nanosecond
  }
}

/// A date and time without an offset (`1979-05-27T07:32:00`).
public struct TOMLLocalDateTime: Hashable, Sendable {
  public var date: TOMLLocalDate, time: TOMLLocalTime
  public init(date: TOMLLocalDate, time: TOMLLocalTime) {
    self.date = date
    self.time = time
  }
}

/// A date and time with a UTC offset (`1979-05-27T07:32:00-07:00`, or `Z`).
public struct TOMLOffsetDateTime: Hashable, Sendable {
  public var date: TOMLLocalDate, time: TOMLLocalTime
  /// Offset from UTC in minutes; `Z` is 0.
  public var offsetMinutes: Int
  public init(date: TOMLLocalDate, time: TOMLLocalTime, offsetMinutes: Int) {
    self.date = date
    self.time = time
    self.offsetMinutes = offsetMinutes
  }
}

/// A TOML value.
public enum TOMLValue: Hashable, Sendable {
  case string(String)
  case integer(Int64)
  case float(Double)
  case boolean(Bool)
  // The large payloads are boxed so that every node stays small.
  indirect case offsetDateTime(TOMLOffsetDateTime)
  indirect case localDateTime(TOMLLocalDateTime)
  case localDate(TOMLLocalDate)
  case localTime(TOMLLocalTime)
  case array(TOMLArray)
  indirect case table(TOMLTable)

  /// The type's name in plain words, for error messages ("a string", "an integer").
  public var kindDescription: String {
    switch self {
    case .string: return "a string"
    case .integer: return "an integer"
    case .float: return "a float"
    case .boolean: return "a boolean"
    case .offsetDateTime: return "an offset date-time"
    case .localDateTime: return "a local date-time"
    case .localDate: return "a local date"
    case .localTime: return "a local time"
    case .array: return "an array"
    case .table: return "a table"
    }
  }
}

/// A value together with the source range it was written at.
public struct TOMLNode: Hashable, Sendable {
  public var value: TOMLValue
  /// Where the value is written. For a table defined by a header, the header.
  public var range: SourceRange

  public init(value: TOMLValue, range: SourceRange) {
    self.value = value
    self.range = range
  }
}

/// An array of values (static `[...]` or an array of tables `[[...]]`).
public struct TOMLArray: Hashable, Sendable {
  public var elements: [TOMLNode]
  public init(elements: [TOMLNode] = []) { self.elements = elements }
}

/// One key/value pair of a table, with the key's own position.
public struct TOMLEntry: Hashable, Sendable {
  public var key: String
  /// Where this key was written (the last segment of a dotted key, or the
  /// table header segment that created it).
  public var keyRange: SourceRange
  public var node: TOMLNode

  public init(key: String, keyRange: SourceRange, node: TOMLNode) {
    self.key = key
    self.keyRange = keyRange
    self.node = node
  }
}

/// How a table came to exist; the redefinition rules depend on it.
public enum TOMLTableOrigin: Hashable, Sendable {
  /// `[a.b]` header.
  case header
  /// Element of `[[a.b]]`.
  case arrayElement
  /// Created implicitly as the parent of a header or dotted key.
  case implicit
  /// Created by a dotted key (`a.b = 1` creates table `a`).
  case dotted
  /// `{ ... }` inline table (sealed).
  case inline
  /// The document's root table.
  case root
}

/// A table: keys in source order, with positions.
public struct TOMLTable: Hashable, Sendable {
  public var entries: [TOMLEntry]
  public var origin: TOMLTableOrigin
  /// For `[a]` / `[[a]]` tables: the header's range (from `[` to `]`/`]]`).
  public var headerRange: SourceRange?

  public init(
    entries: [TOMLEntry] = [], origin: TOMLTableOrigin = .root, headerRange: SourceRange? = nil
  ) {
    self.entries = entries
    self.origin = origin
    self.headerRange = headerRange
  }

  /// The entry for `key`, if present.
  public func entry(_ key: String) -> TOMLEntry? {
    // By index, so the scan compares keys in place instead of copying each entry; the
    // lengths first, a comparison inlined for the small strings keys are, where most keys
    // of a table differ (a decoder asks each table for every key it knows).
    let length = key.utf8.count
    for k in entries.indices where entries[k].key.utf8.count == length && entries[k].key == key {
      return entries[k]
    }
    return nil
  }
  public subscript(key: String) -> TOMLValue? { entry(key)?.node.value }
  public var keys: [String] { entries.map(\.key) }
}

/// A header line of the document (`[a.b]` or `[[a.b]]`), in source order.
/// The config editor uses these to find the extent of one `[[alarm]]` block:
/// it runs from its header to the next header (or the end of the file).
public struct TOMLHeader: Hashable, Sendable {
  public var path: [String]
  public var isArrayOfTables: Bool
  /// From the opening `[` to the closing `]` / `]]`.
  public var range: SourceRange
  /// The start of the header's line (column 1).
  public var lineStart: SourcePosition
}

/// A parsed document.
public struct TOMLDocument: Hashable, Sendable {
  public var root: TOMLTable
  /// Every header, in source order.
  public var headers: [TOMLHeader]
  /// The source length in UTF-8 bytes.
  public var byteCount: Int

  public init(root: TOMLTable, headers: [TOMLHeader], byteCount: Int) {
    self.root = root
    self.headers = headers
    self.byteCount = byteCount
  }
}

/// Why a document is not valid TOML, and where.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
  public var position: SourcePosition
  /// A plain-words reason, lower-case, no trailing period:
  /// "duplicate key 'name' (first defined at 3:1)".
  public var message: String

  public init(position: SourcePosition, message: String) {
    self.position = position
    self.message = message
  }

  /// `line:col: message`.
  public var description: String { "\(position.line):\(position.column): \(message)" }
}
