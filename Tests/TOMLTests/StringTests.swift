import Testing

@testable import TOML

@Suite struct StringTests {
  @Test func basicStringEscapes() {
    #expect(value(#""a\bb\tc\nd\fe\rf\"g\\h""#) == .string("a\u{8}b\tc\nd\u{C}e\rf\"g\\h"))
    #expect(value(#""\u00E9\U0001F600 \u0041""#) == .string("é😀 A"))
    #expect(value(#""\U0010FFFF""#) == .string("\u{10FFFF}"))
    #expect(value(#""""#) == .string(""))
    #expect(value("\"tab\there\"") == .string("tab\there"))
    #expect(value(#""naïve 日本語""#) == .string("naïve 日本語"))
  }

  @Test func invalidEscapes() {
    expectError(#"v = "a\xb""#, at: 1, 7, #"invalid escape '\x' in string"#)
    expectError(#"v = "\e""#, at: 1, 6, #"invalid escape '\e'"#)
    expectError(#"v = "\ ""#, at: 1, 6, "invalid escape")
    expectError(#"v = "\u12""#, at: 1, 6, "exactly 4 hex digits")
    expectError(#"v = "\U0000004""#, at: 1, 6, "exactly 8 hex digits")
    expectError(#"v = "\uD800""#, at: 1, 6, "not a unicode scalar value")
    expectError(#"v = "\uDFFF""#, at: 1, 6, "not a unicode scalar value")
    expectError(#"v = "\U00110000""#, at: 1, 6, "not a unicode scalar value")
    expectError(#"v = "\u{41}""#, at: 1, 6, "hex digits")
  }

  @Test func literalStrings() {
    #expect(value(#"'C:\Users\nodejs\templates'"#) == .string(#"C:\Users\nodejs\templates"#))
    #expect(value(#"'<\i\c*\s*>'"#) == .string(#"<\i\c*\s*>"#))
    #expect(value("''") == .string(""))
    #expect(value("'a\"b'") == .string("a\"b"))
  }

  @Test func unterminatedStrings() {
    expectError("v = \"abc", at: 1, 9, "unterminated string (opened at 1:5)")
    expectError("v = \"abc\nw = 1", at: 1, 9, "unterminated string")
    expectError("v = 'abc\n'", at: 1, 9, "unterminated string")
    expectError("v = \"\"\"abc\n", at: 2, 1, "unterminated multi-line string (opened at 1:5)")
    expectError("v = '''abc", at: 1, 11, "unterminated multi-line string")
    expectError("v = \"abc\\", at: 1, 9, "ends in a backslash")
  }

  @Test func multilineBasic() {
    // A newline right after the opening quotes is trimmed.
    #expect(
      value("\"\"\"\nRoses are red\nViolets are blue\"\"\"")
        == .string("Roses are red\nViolets are blue"))
    // Line-ending backslash trims the newline and following whitespace.
    let folded = "\"\"\"\nThe quick brown \\\n\n\n  fox jumps over \\\n    the lazy dog.\"\"\""
    #expect(value(folded) == .string("The quick brown fox jumps over the lazy dog."))
    let folded2 =
      "\"\"\"\\\n       The quick brown \\\n       fox jumps over \\\n"
      + "       the lazy dog.\\\n       \"\"\""
    #expect(value(folded2) == .string("The quick brown fox jumps over the lazy dog."))
    // Whitespace between the backslash and the newline is allowed.
    #expect(value("\"\"\"a \\  \t\n  b\"\"\"") == .string("a b"))
    // Up to two quotes inside, and right before the closing delimiter.
    #expect(
      value(#""""Here are two quotation marks: "". Simple enough.""""#)
        == .string(#"Here are two quotation marks: "". Simple enough."#))
    #expect(
      value(#""""Here are three quotation marks: ""\".""""#)
        == .string(#"Here are three quotation marks: """."#))
    #expect(
      value(#"""""This," she said, "is just a pointless statement."""""#)
        == .string(#""This," she said, "is just a pointless statement.""#))
    #expect(value("\"\"\"\"\"\"") == .string(""))
    #expect(value("\"\"\"a\tb\"\"\"") == .string("a\tb"))
  }

  @Test func multilineQuoteRuns() {
    expectError(#"v = """a"""""""#, at: 1, 14, "too many quotes")
    expectError("v = \"\"\"a\"\"\" x", at: 1, 13, "expected a newline after a value")
  }

  @Test func multilineLiteral() {
    #expect(
      value("'''I [dw]on't need \\d{2} apples'''") == .string(#"I [dw]on't need \d{2} apples"#))
    let lines =
      "'''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n"
      + "   is preserved.\n'''"
    #expect(
      value(lines)
        == .string(
          "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n"
            + "   is preserved.\n"
        ))
    #expect(
      value("'''Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"'''")
        == .string("Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\""))
    #expect(
      value("''''That,' she said, 'is still pointless.''''")
        == .string("'That,' she said, 'is still pointless.'"))
    #expect(value("'''a\\nb'''") == .string(#"a\nb"#))
    expectError("v = '''a''''''", at: 1, 14, "too many quotes")
  }

  @Test func crlfInMultilineStringsBecomesLF() {
    #expect(value("\"\"\"\r\na\r\nb\"\"\"") == .string("a\nb"))
    #expect(value("'''a\r\nb'''") == .string("a\nb"))
    #expect(value("\"\"\"a \\\r\n   b\"\"\"") == .string("a b"))
    expectError("v = \"\"\"a\rb\"\"\"", at: 1, 9, "bare carriage return")
  }

  @Test func controlCharactersAreRejected() {
    expectError("v = \"a\u{1}b\"", at: 1, 7, "control character U+0001 is not allowed in a string")
    expectError("v = 'a\u{7F}b'", at: 1, 7, "control character U+007F")
    expectError("v = \"\"\"a\u{1B}b\"\"\"", at: 1, 9, "control character U+001B")
    expectError("v = '''\n\u{8}'''", at: 2, 1, "control character U+0008")
    expectError("v = \"a\rb\"", at: 1, 7, "unterminated string")
    expectError("v = \"a\0b\"", at: 1, 7, "nul character")
  }
}
