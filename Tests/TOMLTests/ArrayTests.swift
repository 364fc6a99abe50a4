import Testing

@testable import TOML

@Suite struct ArrayTests {
  @Test func arraysOfEveryShape() {
    #expect(render("integers = [ 1, 2, 3 ]") == "{ integers = [1, 2, 3] }")
    #expect(
      render(#"colors = [ "red", "yellow", "green" ]"#)
        == #"{ colors = ["red", "yellow", "green"] }"#)
    #expect(render("nested = [ [ 1, 2 ], [3, 4, 5] ]") == "{ nested = [[1, 2], [3, 4, 5]] }")
    #expect(
      render(#"nested_mixed = [ [ 1, 2 ], ["a", "b", "c"] ]"#)
        == #"{ nested_mixed = [[1, 2], ["a", "b", "c"]] }"#)
    #expect(
      render(#"s = [ "all", 'strings', """are the same""", '''type''' ]"#)
        == #"{ s = ["all", "strings", "are the same", "type"] }"#)
    // Mixed types are allowed in TOML 1.0.
    #expect(
      render("numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]") == "{ numbers = [0.1, 0.2, 0.5, 1, 2, 5] }")
    #expect(
      render(#"contributors = [ "Foo", { name = "Baz", email = "b@example.com" } ]"#)
        == #"{ contributors = ["Foo", { name = "Baz", email = "b@example.com" }] }"#)
    #expect(render("e = []") == "{ e = [] }")
    #expect(render("e = [[]]") == "{ e = [[]] }")
    #expect(render("d = [1979-05-27, 07:32:00]") == "{ d = [1979-05-27, 07:32:00] }")
  }

  @Test func newlinesCommentsAndTrailingCommas() {
    #expect(render("a = [\n  1,\n  2, # two\n]") == "{ a = [1, 2] }")
    #expect(render("a = [ # open\n\n  1 # one\n  , 2\n\n] # close") == "{ a = [1, 2] }")
    #expect(render("a = [\r\n1,\r\n2\r\n]") == "{ a = [1, 2] }")
    #expect(render("a = [\t1\t,\t]") == "{ a = [1] }")
  }

  @Test func malformedArrays() {
    expectError("a = [1 2]", at: 1, 8, "expected ',' or ']' after an array element, found '2'")
    expectError("a = [1,,2]", at: 1, 8, "expected a value before ','")
    expectError("a = [,]", at: 1, 6, "expected a value before ','")
    expectError("a = [1", at: 1, 7, "unterminated array (opened at 1:5)")
    expectError("a = [1,\n2,\n", at: 3, 1, "unterminated array")
    expectError("a = [1]]", at: 1, 8, "expected a newline after a value, found ']'")
    expectError("a = [1, # comment \u{1}\n]", at: 1, 19, "control character U+0001")
  }

  @Test func nestingIsCappedWithAnError() {
    let limit = TOMLParser.maxNestingDepth
    let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    #expect(parse("a = " + deepest) != nil)
    let tooDeep =
      String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
    expectError("a = " + tooDeep, at: 1, 5 + limit, "nested more than \(limit) deep")
    // Hostile input: far deeper than the cap, unterminated, mixed.
    // Openers alternate '[' and '{'; the one past the cap is a '['.
    expectError(
      "a = " + String(repeating: "[{x=", count: 100_000), at: 1, 5 + 4 * (limit / 2),
      "nested more than")
    let inline = String(repeating: "{a=", count: limit) + "1" + String(repeating: "}", count: limit)
    #expect(parse("x = " + inline) != nil)
  }
}
