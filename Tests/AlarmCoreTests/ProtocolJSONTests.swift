import AlarmCore
import Testing

/// The JSON reader and writer under both codecs.
@Suite struct ProtocolJSONTests {
  func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try JSONValue.parse(Array(text.utf8))
  }

  @Test func readsValues() throws {
    #expect(
      try parse(#" {"a": [1, -2, 3.5, 1e2, true, false, null, "x"]} "#)
        == .object([
          "a": .array([
            .int(1), .int(-2), .double(3.5), .double(100), .bool(true), .bool(false), .null,
            .string("x"),
          ])
        ]))
    #expect(try parse(#""\u00e9\ud83d\ude00\n\t\"\\\/""#) == .string("é😀\n\t\"\\/"))
    #expect(try parse("\"早起\"") == .string("早起"))
    #expect(try parse("9223372036854775807") == .int(Int64.max))
    #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    #expect(try parse("-0") == .int(0))
  }

  @Test func rejectsInvalidJSON() {
    for bad in [
      "", "01", "1.", ".5", "-", "+1", "1e", "tru", "nul", "[1,]", "{\"a\":1,}", "{a:1}", "'x'",
      "\"\\x\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\u12\"", "\"abc", "[", "{\"a\" 1}", "NaN",
      "Infinity", "1e999", "[1] [2]", "\"\u{7}\"", "// c\n1",
    ] {
      #expect(throws: JSONSyntaxError.self, "\(bad)") { try parse(bad) }
    }
    #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xc3, 0x28, 0x22]) }
    #expect(throws: JSONSyntaxError.self) {
      try parse(String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65))
    }
    #expect(
      (try? parse(String(repeating: "[", count: 63) + String(repeating: "]", count: 63))) != nil)
  }

  @Test func writesOneLineWithEverythingEscaped() throws {
    let tricky = "a\nb\r\u{2028}\u{2029}\u{0}\u{7f}\"\\é😀"
    let text = JSONValue.object([
      "k": .string(tricky), "b": .array([.int(-1), .double(0.5), .null]),
    ]).encoded()
    #expect(text == #"{"b":[-1,0.5,null],"k":"a\nb\r\u2028\u2029\u0000\u007f\"\\é😀"}"#)
    #expect(!text.unicodeScalars.contains { $0 == "\n" || $0 == "\u{2028}" })
    #expect(try parse(text)["k"] == .string(tricky))
    #expect(JSONValue.double(.nan).encoded() == "null")
  }

  /// Random bytes and mutated requests: decoded or rejected, never a crash.
  @Test func randomInputNeverCrashes() {
    var rng = SplitMix(seed: 7)
    let seeds = [
      #"{"cmd":"skip","id":"work"}"#, #"{"cmd":"next","count":5}"#, #"{"cmd":"status"}"#,
    ]
    for n in 0..<5000 {
      var bytes = Array(seeds[n % seeds.count].utf8)
      for _ in 0..<(1 + Int(rng.next() % 4)) {
        let i = Int(rng.next() % UInt64(bytes.count))
        bytes[i] = UInt8(truncatingIfNeeded: rng.next())
      }
      _ = try? ControlRequest(line: bytes)
      _ = try? ControlReply(line: bytes, for: .status)
    }
  }
}
