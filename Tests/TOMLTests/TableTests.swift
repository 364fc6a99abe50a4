import Testing

@testable import TOML

@Suite struct TableTests {
  @Test func standardTables() {
    #expect(
      render(
        "[table-1]\nkey1 = \"some string\"\nkey2 = 123\n\n[table-2]\n"
          + "key1 = \"another string\"\nkey2 = 456"
      )
        == #"{ table-1 = { key1 = "some string", key2 = 123 }, "#
        + #"table-2 = { key1 = "another string", key2 = 456 } }"#
    )
    #expect(
      render("[dog.\"tater.man\"]\ntype.name = \"pug\"")
        == #"{ dog = { "tater.man" = { type = { name = "pug" } } } }"#)
    #expect(
      render("[a.b.c]\n[ d.e.f ]\n[ g .  h  . i ]\n[ j . \"ʞ\" . 'l' ]")
        == #"{ a = { b = { c = {} } }, d = { e = { f = {} } }, g = { h = { i = {} } }, "#
        + #"j = { "ʞ" = { l = {} } } }"#
    )
    #expect(render("[empty]") == "{ empty = {} }")
    #expect(render("[\"\"]\nx = 1") == #"{ "" = { x = 1 } }"#)
  }

  @Test func tableOrigins() {
    guard let d = parse("a.b = 1\n[x.y]\n[[z]]\ni = { k = 1 }") else { return }
    guard case .table(let a) = lookup(d, "a"), case .table(let x) = lookup(d, "x"),
      case .table(let y) = lookup(d, "x.y"), case .table(let z0) = lookup(d, "z.0")
    else {
      Issue.record("missing tables")
      return
    }
    #expect(d.root.origin == .root)
    #expect(a.origin == .dotted)
    #expect(x.origin == .implicit)
    #expect(y.origin == .header)
    #expect(z0.origin == .arrayElement)
    guard case .table(let inline) = lookup(d, "z.0.i") else {
      Issue.record("missing inline table")
      return
    }
    #expect(inline.origin == .inline)
  }

  @Test func superTableAfterSubTablesOnce() {
    #expect(
      render("[x.y.z.w]\na = 1\n[x]\nb = 2") == "{ x = { y = { z = { w = { a = 1 } } }, b = 2 } }")
    #expect(render("[a.b]\nc = 1\n\n[a]\nd = 2") == "{ a = { b = { c = 1 }, d = 2 } }")
    expectError("[a.b]\n[a]\n[a]", at: 3, 2, "table 'a' is defined twice (first at 2:1)")
  }

  @Test func arraysOfTables() {
    let text = """
      [[products]]
      name = "Hammer"
      sku = 738594937

      [[products]]  # empty table within the array

      [[products]]
      name = "Nail"
      sku = 284758393

      color = "gray"
      """
    #expect(
      render(text)
        == #"{ products = [{ name = "Hammer", sku = 738594937 }, {}, { name = "Nail", "#
        + #"sku = 284758393, color = "gray" }] }"#
    )
    let nested = """
      [[fruits]]
      name = "apple"

      [fruits.physical]  # subtable
      color = "red"
      shape = "round"

      [[fruits.varieties]]  # nested array of tables
      name = "red delicious"

      [[fruits.varieties]]
      name = "granny smith"


      [[fruits]]
      name = "banana"

      [[fruits.varieties]]
      name = "plantain"
      """
    #expect(
      render(nested)
        == #"{ fruits = [{ name = "apple", physical = { color = "red", shape = "round" }, "#
        + #"varieties = [{ name = "red delicious" }, { name = "granny smith" }] }, "#
        + #"{ name = "banana", varieties = [{ name = "plantain" }] }] }"#
    )
    #expect(
      render("points = [ { x = 1, y = 2, z = 3 },\n  { x = 7, y = 8, z = 9 } ]")
        == "{ points = [{ x = 1, y = 2, z = 3 }, { x = 7, y = 8, z = 9 }] }")
  }

  @Test func malformedHeaders() {
    expectError("[a", at: 1, 3, "expected ']' to close the table header, found end of file")
    expectError("[a\n", at: 1, 3, "expected ']'")
    expectError("[]", at: 1, 2, "expected a table name")
    expectError("[[a]", at: 1, 5, "expected ']]' to close the array-of-tables header")
    expectError("[[a] ]", at: 1, 5, "expected ']]'")
    expectError("[ [a] ]", at: 1, 3, "expected a key, found '['")
    expectError("[a.]", at: 1, 4, "expected a key, found ']'")
    expectError("[.a]", at: 1, 2, "expected a key")
    expectError("[a..b]", at: 1, 4, "expected a key, found '.'")
    expectError("[a] b = 1", at: 1, 5, "expected a newline after a table header, found 'b'")
    expectError("[a b]", at: 1, 4, "expected ']' to close the table header, found 'b'")
    expectError("[\"\"\"a\"\"\"]", at: 1, 2, "a multi-line string cannot be a key")
  }
}

@Suite struct KeyTests {
  @Test func bareAndQuotedKeys() {
    #expect(
      render("key = 1\nbare_key = 2\nbare-key = 3\n1234 = 4")
        == "{ key = 1, bare_key = 2, bare-key = 3, 1234 = 4 }")
    #expect(
      render(
        #""127.0.0.1" = 1"# + "\n" + #""character encoding" = 2"# + "\n"
          + #""ʎǝʞ" = 3"# + "\n" + #"'key2' = 4"# + "\n" + #"'quoted "value"' = 5"#)
        == #"{ "127.0.0.1" = 1, "character encoding" = 2, "ʎǝʞ" = 3, key2 = 4, "#
        + #""quoted \"value\"" = 5 }"#
    )
    #expect(render(#""" = "blank""#) == #"{ "" = "blank" }"#)
    #expect(render("'' = 'blank'") == #"{ "" = "blank" }"#)
    #expect(render(#""\u0041" = 1"#) == "{ A = 1 }")
    #expect(render("3.14159 = \"pi\"") == #"{ 3 = { 14159 = "pi" } }"#)
  }

  @Test func dottedKeys() {
    #expect(
      render(
        "name = \"Orange\"\nphysical.color = \"orange\"\nphysical.shape = \"round\"\n"
          + "site.\"google.com\" = true"
      )
        == #"{ name = "Orange", physical = { color = "orange", shape = "round" }, "#
        + #"site = { "google.com" = true } }"#
    )
    #expect(
      render("fruit.name = \"banana\"\nfruit. color = \"yellow\"\nfruit . flavor = \"banana\"")
        == #"{ fruit = { name = "banana", color = "yellow", flavor = "banana" } }"#)
    #expect(render("a . 'b' .\"c\"\t.\td = 1") == "{ a = { b = { c = { d = 1 } } } }")
    #expect(
      render(
        "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n\n"
          + "[fruit.apple.texture]\nsmooth = true"
      )
        == #"{ fruit = { apple = { color = "red", taste = { sweet = true }, "#
        + #"texture = { smooth = true } } } }"#
    )
    #expect(
      render(
        "apple.type = \"fruit\"\norange.type = \"fruit\"\napple.skin = \"thin\"\n"
          + "orange.skin = \"thick\""
      )
        == #"{ apple = { type = "fruit", skin = "thin" }, orange = { type = "fruit", "#
        + #"skin = "thick" } }"#
    )
  }

  @Test func keyErrors() {
    expectError("key = ", at: 1, 7, "expected a value after '='")
    expectError("key = # comment", at: 1, 7, "expected a value after '='")
    expectError("= \"no key\"", at: 1, 1, "expected a key, found '='")
    expectError("key", at: 1, 4, "expected '=' after key 'key'")
    expectError("key value", at: 1, 5, "expected '=' after key, found 'v'")
    expectError(
      "first = \"Tom\" last = \"Preston-Werner\"", at: 1, 15,
      "expected a newline after a value, found 'l'")
    expectError("a.b.c", at: 1, 6, "expected '=' after key 'a.b.c'")
    expectError("a. = 1", at: 1, 4, "expected a key, found '='")
    expectError("\"\"\"k\"\"\" = 1", at: 1, 1, "a multi-line string cannot be a key")
    expectError("k\u{e9}y = 1", at: 1, 2, "expected '=' after key, found 'é'")
    expectError("ke:y = 1", at: 1, 3, "expected '=' after key, found ':'")
    expectError("\"k\ney\" = 1", at: 1, 3, "unterminated string")
    expectError("a\n= 1", at: 1, 2, "expected '=' after key 'a'")
  }

  @Test func keyPartsAreCapped() {
    let limit = TOMLParser.maxKeyParts
    let long = Array(repeating: "a", count: limit).joined(separator: ".")
    #expect(parse(long + " = 1") != nil)
    expectError(long + ".a = 1", at: 1, 2 * limit + 1, "key has more than \(limit) parts")
  }
}
