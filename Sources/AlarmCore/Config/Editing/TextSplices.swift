/// Byte-level helpers for editing config text in place: line boundaries, the file's
/// line ending, and a set of replacements applied together.

/// One replacement of the original text: the bytes in `range` become `text`.
struct TextSplice: Hashable, Sendable {
  var range: Range<Int>
  var text: String

  init(_ range: Range<Int>, _ text: String) {
    self.range = range
    self.text = text
  }

  static func insert(_ text: String, at offset: Int) -> TextSplice {
    TextSplice(offset..<offset, text)
  }
}

/// The original text as UTF-8 bytes, with the line arithmetic the editor needs.
struct SourceText {
  let bytes: [UInt8]

  init(_ text: String) { bytes = Array(text.utf8) }

  private static let lf = UInt8(ascii: "\n")
  private static let cr = UInt8(ascii: "\r")

  /// `\r\n` when the file's first line ends so, else `\n`.
  var newline: String {
    guard let i = bytes.firstIndex(of: SourceText.lf) else { return "\n" }
    return i > 0 && bytes[i - 1] == SourceText.cr ? "\r\n" : "\n"
  }

  /// The offset where the line holding `offset` starts.
  func lineStart(_ offset: Int) -> Int {
    var i = min(offset, bytes.count)
    while i > 0 && bytes[i - 1] != SourceText.lf { i -= 1 }
    return i
  }

  /// The offset just past the end of the line holding `offset` (past its `\n`), or
  /// the end of the text.
  func lineEnd(_ offset: Int) -> Int {
    var i = max(0, offset)
    while i < bytes.count && bytes[i] != SourceText.lf { i += 1 }
    return min(i + 1, bytes.count)
  }

  /// Whether the text ends with a line ending (an empty text counts as ending so).
  var endsWithNewline: Bool { bytes.last.map { $0 == SourceText.lf } ?? true }

  /// The blanks at the start of the line holding `offset` (to indent a new line alike).
  func indentation(ofLineAt offset: Int) -> String {
    var i = lineStart(offset)
    var out = ""
    while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") {
      out.unicodeScalars.append(Unicode.Scalar(bytes[i]))
      i += 1
    }
    return out
  }

  /// Whether the line starting at `start` holds only blanks.
  func isBlankLine(at start: Int) -> Bool {
    var i = start
    while i < bytes.count, bytes[i] != SourceText.lf {
      if bytes[i] != UInt8(ascii: " ") && bytes[i] != UInt8(ascii: "\t")
        && bytes[i] != SourceText.cr
      {
        return false
      }
      i += 1
    }
    return true
  }

  /// Whether the line starting at `start` is a comment (blanks, then `#`).
  func isCommentLine(at start: Int) -> Bool {
    var i = start
    while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") {
      i += 1
    }
    return i < bytes.count && bytes[i] == UInt8(ascii: "#")
  }

  /// The starts of the lines in `range` (each line starting inside it).
  func lineStarts(in range: Range<Int>) -> [Int] {
    var out: [Int] = []
    var i = range.lowerBound
    while i < range.upperBound {
      out.append(i)
      let next = lineEnd(i)
      if next == i { break }
      i = next
    }
    return out
  }

  /// The text with every splice applied. Splices must not overlap; inserts at the
  /// same offset keep their order.
  func applying(_ splices: [TextSplice]) -> (text: String, touched: Range<Int>?) {
    let sorted = splices.enumerated().sorted {
      ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
    }.map(\.element)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + sorted.reduce(0) { $0 + $1.text.utf8.count })
    var at = 0
    for s in sorted {
      out += bytes[at..<max(at, s.range.lowerBound)]
      out += Array(s.text.utf8)
      at = max(at, s.range.upperBound)
    }
    out += bytes[min(at, bytes.count)...]
    let touched =
      sorted.isEmpty
      ? nil : sorted.map(\.range.lowerBound).min()!..<sorted.map(\.range.upperBound).max()!
    return (String(decoding: out, as: UTF8.self), touched)
  }
}
