import Testing

@testable import TOML

/// Whole-document concerns: line endings, BOM, comments, encodings.
@Suite struct DocumentTests {
  @Test func emptyDocuments() {
    for text in ["", " ", "\t", "\n", "\r\n", "# only a comment", "\n\n  # c\n\n"] {
      #expect(render(text) == "{}")
    }
  }

  @Test func crlfLineEndings() throws {
    let text = "a = 1\r\n[t]\r\nb = \"x\" # c\r\n\r\n[[u]]\r\nc = [\r\n  1,\r\n]\r\n"
    #expect(render(text) == #"{ a = 1, t = { b = "x" }, u = [{ c = [1] }] }"#)
    let d = try TOMLParser.parse(text)
    #expect(d.headers.map(\.lineStart.line) == [2, 5])
    expectError("a = 1\r\nb = 2\rc = 3", at: 2, 6, "bare carriage return")
    expectError("a = 1\r", at: 1, 6, "bare carriage return")
    expectError("# comment\r", at: 1, 10, "bare carriage return in a comment")
  }

  @Test func byteOrderMark() throws {
    let d = try TOMLParser.parse("\u{FEFF}a = 1\n")
    #expect(d.root["a"] == .integer(1))
    let a = try #require(d.root.entry("a"))
    #expect(a.keyRange.start == SourcePosition(line: 1, column: 1, offset: 3))
    #expect(try TOMLParser.parse(utf8: [0xEF, 0xBB, 0xBF]).root.entries.isEmpty)
    // Only at the very start.
    expectError("a = 1\n\u{FEFF}b = 2", at: 2, 1, "expected a key, found U+FEFF")
  }

  @Test func comments() {
    #expect(
      render(
        "# This is a full-line comment\n"
          + "key = \"value\"  # This is a comment at the end of a line\n"
          + "another = \"# This is not a comment\""
      ) == ##"{ key = "value", another = "# This is not a comment" }"##)
    #expect(render("a = 1 #\tcomment with tab and unicode ☃ and \"quotes\"") == "{ a = 1 }")
    expectError("# bad \u{7}", at: 1, 7, "control character U+0007 is not allowed in a comment")
    expectError("a = 1 # \u{7F}", at: 1, 9, "control character U+007F")
    expectError("a = 1 # \u{1F}\n", at: 1, 9, "control character U+001F")
  }

  @Test func whitespaceAroundKeysAndValues() {
    #expect(render("  \t key \t = \t \"v\" \t ") == #"{ key = "v" }"#)
    #expect(render("a=1\nb\t=\t2") == "{ a = 1, b = 2 }")
  }

  @Test func invalidUTF8IsReportedWhereItIs() {
    let bad: [[UInt8]] = [
      Array("a = \"".utf8) + [0xFF] + Array("\"".utf8),
      Array("a = \"".utf8) + [0xC0, 0x80] + Array("\"".utf8),  // overlong NUL
      Array("a = \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8),  // surrogate
      Array("a = \"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"".utf8),  // > U+10FFFF
      Array("a = \"".utf8) + [0xE2, 0x82] + Array("\"".utf8),  // truncated
    ]
    for bytes in bad {
      do {
        _ = try TOMLParser.parse(utf8: bytes)
        Issue.record("accepted invalid utf-8 \(bytes)")
      } catch {
        #expect(error.position == SourcePosition(line: 1, column: 6, offset: 5))
        #expect(error.message.hasPrefix("invalid utf-8 byte 0x"))
      }
    }
    do {
      _ = try TOMLParser.parse(utf8: Array("ok = 'ü'\n# é \u{1}".utf8) + [0x80])
      Issue.record("accepted a stray continuation byte")
    } catch {
      #expect(error.description == "2:6: invalid utf-8 byte 0x80")
    }
  }

  @Test func validBytesParseLikeText() throws {
    let text = "[t]\nk = \"日本 \\u00e9\"\n"
    #expect(try TOMLParser.parse(utf8: Array(text.utf8)) == TOMLParser.parse(text))
  }

  @Test func nulAnywhereIsRejected() {
    expectError("a = 1\nb = \0", at: 2, 5, "nul character (U+0000) is not allowed")
    expectError("# \0", at: 1, 3, "nul character")
  }

  @Test func errorDescriptionIsLineColonColumn() {
    do {
      _ = try TOMLParser.parse("a = 1\nb = ?")
      Issue.record("accepted '?'")
    } catch {
      #expect(error.description == "2:5: expected a value, found '?'")
    }
  }

  @Test func errorsPointAtScalarColumns() {
    // Two multi-byte scalars before the error: columns count scalars.
    expectError("\"ä☀\" = 1 x", at: 1, 10, "expected a newline after a value, found 'x'")
    expectError("a = \"ä☀\" ☀", at: 1, 10, "found '☀'")
  }

  @Test func largeDocumentParses() throws {
    var text = "[defaults]\nsound = \"chime.mp3\"\n\n"
    for n in 0..<2000 {
      text += "[[alarm]]\nid = \"a\(n)\"\ntime = \(10 + n % 14):\(10 + n % 50):00\n"
      text += "days = [\"mon\", \"fri\"]\nlabel = \"Alarm \(n)\"\n\n"
    }
    let d = try TOMLParser.parse(text)
    guard case .array(let alarms) = d.root["alarm"] else {
      Issue.record("no alarms")
      return
    }
    #expect(alarms.elements.count == 2000)
    #expect(d.headers.count == 2001)
    #expect(lookup(d, "alarm.1999.label") == .string("Alarm 1999"))
  }
}
