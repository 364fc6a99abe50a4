import Testing

@testable import TOML

/// Nothing may trap, whatever the input: mutate real documents byte by byte
/// and make sure every variant either parses or fails with a position that
/// lies inside the text.
@Suite struct RobustnessTests {
  static let seedDocument = """
    # alarms
    title = "Wake \\u00e9 \\U0001F600"
    [defaults]
    volume = 70
    ramp = 1_000
    ratio = -1.5e-3
    hex = 0xdead_beef
    when = 1979-05-27T07:32:00.999-07:00
    day = 2024-02-29
    t = 23:59:60
    s = '''
    lit'''
    m = \"\"\"a \\
      b\"\"\"
    arr = [1, [2, {x = 3}], "q",]
    [[alarm]]
    a.b."c d" = { e = [] }
    """

  /// A small deterministic generator (xorshift), so failures reproduce.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
  }

  @Test func mutatedDocumentsNeverTrap() {
    let base = Array(Self.seedDocument.utf8)
    let alphabet = Array("[]{}=.,\"'#\\\n\r\t 0_+-:eExobTZz".utf8) + [0x00, 0x01, 0x7F, 0xC3, 0xA9]
    var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
    var accepted = 0
    for _ in 0..<3000 {
      var bytes = base
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        let at = Int(generator.next() % UInt64(bytes.count))
        let b = alphabet[Int(generator.next() % UInt64(alphabet.count))]
        switch generator.next() % 3 {
        case 0: bytes[at] = b
        case 1: bytes.insert(b, at: at)
        default: bytes.remove(at: at)
        }
      }
      do {
        _ = try TOMLParser.parse(utf8: bytes)
        accepted += 1
      } catch {
        #expect(error.position.offset >= 0 && error.position.offset <= bytes.count)
        #expect(error.position.line >= 1 && error.position.column >= 1)
        #expect(!error.message.isEmpty)
      }
    }
    #expect(accepted > 0)
  }

  @Test func truncatedDocumentsNeverTrap() {
    let base = Array(Self.seedDocument.utf8)
    for n in 0...base.count {
      let prefix = Array(base[0..<n])
      // Cutting inside a multi-byte scalar makes invalid UTF-8; that is an error too.
      _ = try? TOMLParser.parse(utf8: prefix)
      if let text = String(validating: prefix, as: UTF8.self) {
        _ = try? TOMLParser.parse(text)
      }
    }
  }

  @Test func seedDocumentIsValid() throws {
    let d = try TOMLParser.parse(Self.seedDocument)
    #expect(lookup(d, "defaults.m") == .string("a b"))
    #expect(lookup(d, "defaults.s") == .string("lit"))
    #expect(lookup(d, "alarm.0.a.b.c d.e") == .array(TOMLArray()))
  }
}
