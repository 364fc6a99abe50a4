import Testing

@testable import TOML

/// TOML 1.0's rules against defining anything twice.
@Suite struct RedefinitionTests {
  @Test func duplicateKeys() {
    expectError(
      "name = \"Tom\"\nname = \"Pradyun\"", at: 2, 1,
      "duplicate key 'name' (first defined at 1:8)")
    expectError(
      "spelling = \"favorite\"\n\"spelling\" = \"favourite\"", at: 2, 1,
      "duplicate key 'spelling'")
    expectError("a = 1\n'a' = 2", at: 2, 1, "duplicate key 'a'")
    expectError("[t]\nx.y = 1\nx.y = 2", at: 3, 3, "duplicate key 'x.y' (first defined at 2:7)")
    expectError("a = { b = 1, b = 2 }", at: 1, 14, "duplicate key 'b'")
    expectError("\"a b\" = 1\n'a b' = 2", at: 2, 1, #"duplicate key '"a b"'"#)
  }

  /// Keys are the same when their strings are equal, as Swift compares them: `é` written
  /// as one scalar and as `e` with a combining accent (bytes of different lengths) are one
  /// key, in a small table and in one past the parser's index threshold alike, and the
  /// header paths keep each spelling as written.
  @Test func canonicallyEqualKeys() throws {
    expectError("\"\u{E9}\" = 1\n\"e\u{301}\" = 2", at: 2, 1, "duplicate key")
    let many = (0..<30).map { "k\($0) = \($0)" }.joined(separator: "\n")
    expectError(many + "\n\"\u{E9}\" = 1\n\"e\u{301}\" = 2", at: 32, 1, "duplicate key")
    let document = try TOMLParser.parse("[[\"\u{E9}\"]]\n[[\"\u{E9}\"]]\n[[\"e\u{301}\"]]")
    #expect(
      document.headers.map { Array($0.path[0].utf8) } == [
        [0xC3, 0xA9], [0xC3, 0xA9], [0x65, 0xCC, 0x81],
      ])
  }

  @Test func dottedKeyOverValue() {
    // `fruit.apple` is an integer, so it cannot become a table.
    expectError(
      "fruit.apple = 1\nfruit.apple.smooth = true", at: 2, 7,
      "'fruit.apple' is already an integer (defined at 1:15), not a table")
    expectError("a = \"x\"\na.b = 1", at: 2, 1, "'a' is already a string")
    expectError("a = [1]\na.b = 1", at: 2, 1, "'a' is a static array")
  }

  @Test func tablesDefinedTwice() {
    expectError(
      "[fruit]\napple = \"red\"\n\n[fruit]\norange = \"orange\"", at: 4, 2,
      "table 'fruit' is defined twice (first at 1:1)")
    expectError(
      "[fruit]\napple = \"red\"\n\n[fruit.apple]\ntexture = \"smooth\"", at: 4, 8,
      "'fruit.apple' is already a string")
    expectError("[a.b]\n[a.b]", at: 2, 4, "table 'a.b' is defined twice")
    expectError("[a]\nb = 1\n[a.b]", at: 3, 4, "'a.b' is already an integer")
  }

  @Test func headersCannotReopenDottedTables() {
    let text = "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n"
    expectError(
      text + "[fruit.apple]", at: 4, 8,
      "table 'fruit.apple' is already defined by dotted keys (at 2:1)")
    expectError(text + "[fruit.apple.taste]", at: 4, 14, "already defined by dotted keys")
    expectError("a.b = 1\n[a]", at: 2, 2, "table 'a' is already defined by dotted keys")
    // A sub-table of a dotted table is fine.
    #expect(parse(text + "[fruit.apple.texture]\nsmooth = true") != nil)
  }

  @Test func dottedKeysCannotExtendHeaderTables() {
    expectError(
      "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", at: 4, 1,
      "cannot add keys to table 'b' with a dotted key: it is defined by a table header at 1:4")
    expectError("[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1", at: 4, 1, "cannot add keys to table 'b'")
    expectError("[a.b]\n[a]\nb.x = 1", at: 3, 1, "cannot add keys to table 'b'")
    expectError("[[a.b]]\n[a]\nb.x = 1", at: 3, 1, "cannot add keys to array of tables 'b'")
  }

  @Test func inlineTablesAreSealed() {
    expectError(
      "[product]\ntype = { name = \"Nail\" }\ntype.edible = false", at: 3, 1,
      "cannot extend inline table 'type' (defined at 2:8)")
    expectError(
      "[product]\ntype.name = \"Nail\"\ntype = { edible = false }", at: 3, 1,
      "duplicate key 'type'")
    expectError("a = {}\n[a]", at: 2, 2, "cannot extend inline table 'a'")
    expectError("a = { b = {} }\n[a.b]", at: 2, 2, "cannot extend inline table 'a'")
    expectError("a = { b = 1 }\n[a.c]", at: 2, 2, "cannot extend inline table 'a'")
    expectError("a = { b.c = 1, b = 2 }", at: 1, 16, "duplicate key 'b'")
    expectError("a = { b = { c = 1 }, b.d = 2 }", at: 1, 22, "cannot extend inline table 'b'")
    // Dotted keys inside one inline table are fine.
    #expect(render("a = { b.c = 1, b.d = 2 }") == "{ a = { b = { c = 1, d = 2 } } }")
  }

  @Test func arraysOfTablesAndStaticArrays() {
    expectError(
      "fruits = []\n\n[[fruits]]", at: 3, 3,
      "cannot append to static array 'fruits' with [[fruits]] (defined at 1:10)")
    expectError("a = [{ b = 1 }]\n[a.c]", at: 2, 2, "'a' is a static array")
    expectError("[[a]]\n[a]", at: 2, 2, "'a' is already an array of tables (defined at 1:1)")
    expectError(
      "[a]\n[[a]]", at: 2, 3, "'a' is already a table (defined at 1:1), not an array of tables")
    expectError("[a.b]\n[[a]]", at: 2, 3, "'a' is already a table")
    expectError("a = 1\n[[a]]", at: 2, 3, "'a' is already an integer")
    let spec = """
      [[fruits]]
      name = "apple"

      [[fruits.varieties]]
      name = "red delicious"

      # INVALID: This table conflicts with the previous array of tables
      [fruits.varieties]
      name = "granny smith"
      """
    expectError(spec, at: 8, 9, "'fruits.varieties' is already an array of tables")
    let spec2 = """
      [fruit.physical]  # subtable, but to which parent element should it belong?
      color = "red"
      shape = "round"

      [[fruit]]  # parser must throw an error upon discovering that "fruit" is
                 # a table rather than an array of tables
      name = "apple"
      """
    expectError(spec2, at: 5, 3, "'fruit' is already a table")
  }

  @Test func headerThroughArrayOfTablesUsesLastElement() {
    #expect(
      render("[[a]]\nx = 1\n[[a]]\nx = 2\n[a.b]\ny = 3")
        == "{ a = [{ x = 1 }, { x = 2, b = { y = 3 } }] }")
    // Each element is a fresh table: the same sub-table may appear in each.
    #expect(render("[[a]]\n[a.b]\n[[a]]\n[a.b]") == "{ a = [{ b = {} }, { b = {} }] }")
  }
}
