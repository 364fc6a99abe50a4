// Compiled into every fuzz target (scripts/fuzz). An invariant that fails
// traps, so libFuzzer records it as a crash and saves the input.

/// Traps with `message` when `condition` is false.
func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { fail(message(), file: file, line: line) }
}

/// Traps: an invariant was broken.
func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError("fuzz invariant broken: \(message)", file: file, line: line)
}

/// Reads the fuzzer's bytes front to back: leading control bytes, then the payload.
struct FuzzBytes {
  let bytes: [UInt8]
  var position = 0

  init(_ data: UnsafePointer<UInt8>, _ size: Int) {
    bytes = Array(UnsafeBufferPointer(start: data, count: size))
  }

  /// The next byte, or 0 past the end (so short inputs still mean something).
  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// Everything not read yet.
  var rest: ArraySlice<UInt8> { bytes[min(position, bytes.count)...] }

  /// A chunking plan: one length byte (mod 8) then that many chunk sizes.
  mutating func chunkSizes() -> [Int] {
    let n = Int(byte() % 8)
    return (0..<n).map { _ in Int(byte()) }
  }
}

/// Splits `stream` into consecutive chunks whose sizes cycle through `sizes`.
/// A size of 0 is an empty feed (a wake-up that read nothing); with no
/// non-zero size the stream is one chunk.
func chunks(_ stream: ArraySlice<UInt8>, sizes: [Int]) -> [ArraySlice<UInt8>] {
  guard sizes.contains(where: { $0 > 0 }) else { return sizes.map { _ in [] } + [stream] }
  var out: [ArraySlice<UInt8>] = []
  var start = stream.startIndex
  var i = 0
  while start < stream.endIndex {
    let n = sizes[i % sizes.count]
    i += 1
    let end = min(stream.endIndex, start + n)
    out.append(stream[start..<end])
    start = end
  }
  return out
}

/// Where each UTF-8 offset of a text is, as the parsers count it: lines split
/// at "\n", columns count Unicode scalars, both from 1. `nil` for an offset
/// inside a multi-byte scalar.
struct LineTable {
  private var places: [(line: Int, column: Int)?] = []

  init(_ utf8: [UInt8]) {
    places.reserveCapacity(utf8.count + 1)
    var line = 1
    var column = 1
    for b in utf8 {
      if b & 0xC0 == 0x80 {
        places.append(nil)
        continue
      }
      places.append((line, column))
      if b == 0x0A {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    places.append((line, column))
  }

  /// A problem with the position, or nil when it is a real place in the text.
  func check(line: Int, column: Int, offset: Int) -> String? {
    guard offset >= 0, offset < places.count else {
      return "offset \(offset) outside 0...\(places.count - 1)"
    }
    guard let place = places[offset] else { return "offset \(offset) inside a UTF-8 sequence" }
    guard place.line == line, place.column == column else {
      return "offset \(offset) is \(place.line):\(place.column), reported \(line):\(column)"
    }
    return nil
  }
}
