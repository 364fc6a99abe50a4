import Testing

@testable import TOML

/// The examples of the TOML 1.0 specification, in its order, as real text.
/// (Examples that belong to one area are also in that area's tests.)
@Suite struct SpecExampleTests {
  @Test func theOpeningExample() throws {
    let text = """
      # This is a TOML document

      title = "TOML Example"

      [owner]
      name = "Tom Preston-Werner"
      dob = 1979-05-27T07:32:00-08:00

      [database]
      enabled = true
      ports = [ 8000, 8001, 8002 ]
      data = [ ["delta", "phi"], [3.14] ]
      temp_targets = { cpu = 79.5, case = 72.0 }

      [servers]

      [servers.alpha]
      ip = "10.0.0.1"
      role = "frontend"

      [servers.beta]
      ip = "10.0.0.2"
      role = "backend"
      """
    #expect(
      render(text)
        == #"{ title = "TOML Example", owner = { name = "Tom Preston-Werner", "#
        + #"dob = 1979-05-27T07:32:00-08:00 }, database = { enabled = true, ports = [8000, "#
        + #"8001, 8002], data = [["delta", "phi"], [3.14]], temp_targets = { cpu = 79.5, "#
        + #"case = 72.0 } }, servers = { alpha = { ip = "10.0.0.1", role = "frontend" }, "#
        + #"beta = { ip = "10.0.0.2", role = "backend" } } }"#
    )
    let d = try TOMLParser.parse(text)
    #expect(
      d.headers.map { $0.path.joined(separator: ".") } == [
        "owner", "database", "servers", "servers.alpha", "servers.beta",
      ])
  }

  @Test func keyValuePairs() {
    #expect(render(#"key = "value""#) == #"{ key = "value" }"#)
    expectError("key = # INVALID", at: 1, 7, "expected a value after '='")
    expectError(
      "first = \"Tom\" last = \"Preston-Werner\" # INVALID", at: 1, 15,
      "expected a newline after a value")
  }

  @Test func keys() {
    expectError(
      "= \"no key name\"  # INVALID\n\"\" = \"blank\"\n'' = 'blank'", at: 1, 1,
      "expected a key")
    #expect(render("\"\" = \"blank\"     # VALID but discouraged") == #"{ "" = "blank" }"#)
    expectError("name = \"Tom\"\nname = \"Pradyun\"", at: 2, 1, "duplicate key 'name'")
    expectError(
      "spelling = \"favorite\"\n\"spelling\" = \"favourite\"", at: 2, 1,
      "duplicate key 'spelling'")
    #expect(
      render(
        "# This makes the key \"fruit\" into a table.\nfruit.apple.smooth = true\n\n"
          + "# So then you can add to the table \"fruit\" like so:\nfruit.orange = 2"
      ) == "{ fruit = { apple = { smooth = true }, orange = 2 } }")
    expectError(
      "# THE FOLLOWING IS INVALID\nfruit.apple = 1\nfruit.apple.smooth = true", at: 3, 7,
      "'fruit.apple' is already an integer")
    #expect(
      render(
        "apple.type = \"fruit\"\napple.skin = \"thin\"\napple.color = \"red\"\n\n"
          + "orange.type = \"fruit\"\norange.skin = \"thick\"\norange.color = \"orange\""
      )
        == #"{ apple = { type = "fruit", skin = "thin", color = "red" }, "#
        + #"orange = { type = "fruit", skin = "thick", color = "orange" } }"#
    )
    #expect(render("3.14159 = \"pi\"") == #"{ 3 = { 14159 = "pi" } }"#)
  }

  @Test func strings() {
    #expect(
      render(#"str = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF.""#)
        == #"{ str = "I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF." }"#)
    #expect(
      render("str1 = \"\"\"\nRoses are red\nViolets are blue\"\"\"")
        == #"{ str1 = "Roses are red\nViolets are blue" }"#)
    let fox = #"""
      str1 = "The quick brown fox jumps over the lazy dog."

      str2 = """
      The quick brown \


        fox jumps over \
          the lazy dog."""

      str3 = """\
             The quick brown \
             fox jumps over \
             the lazy dog.\
             """
      """#
    let sentence = #""The quick brown fox jumps over the lazy dog.""#
    #expect(render(fox) == "{ str1 = \(sentence), str2 = \(sentence), str3 = \(sentence) }")
    let quotes = #"""
      str4 = """Here are two quotation marks: "". Simple enough."""
      str5 = """Here are three quotation marks: ""\"."""
      str6 = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\"."""

      # "This," she said, "is just a pointless statement."
      str7 = """"This," she said, "is just a pointless statement.""""
      """#
    #expect(
      render(quotes)
        == #"{ str4 = "Here are two quotation marks: \"\". Simple enough.", "#
        + #"str5 = "Here are three quotation marks: \"\"\".", "#
        + #"str6 = "Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\".", "#
        + #"str7 = "\"This,\" she said, \"is just a pointless statement.\"" }"#
    )
    expectError(
      #"str5 = """Here are three quotation marks: """."""  # INVALID"#, at: 1, 46,
      "expected a newline after a value, found '.'")
    let literal = #"""
      winpath  = 'C:\Users\nodejs\templates'
      winpath2 = '\\ServerX\admin$\system32\'
      quoted   = 'Tom "Dubs" Preston-Werner'
      regex    = '<\i\c*\s*>'
      """#
    #expect(
      render(literal)
        == #"{ winpath = "C:\\Users\\nodejs\\templates", "#
        + #"winpath2 = "\\\\ServerX\\admin$\\system32\\", "#
        + #"quoted = "Tom \"Dubs\" Preston-Werner", regex = "<\\i\\c*\\s*>" }"#
    )
    let multiLiteral = #"""
      regex2 = '''I [dw]on't need \d{2} apples'''
      lines  = '''
      The first newline is
      trimmed in raw strings.
         All other whitespace
         is preserved.
      '''
      """#
    #expect(
      render(multiLiteral)
        == #"{ regex2 = "I [dw]on't need \\d{2} apples", lines = "The first newline is\n"#
        + #"trimmed in raw strings.\n   All other whitespace\n   is preserved.\n" }"#
    )
    let fifteen = #"""
      quot15 = '''Here are fifteen quotation marks: """""""""""""""'''
      apos15 = "Here are fifteen apostrophes: '''''''''''''''"
      str = ''''That,' she said, 'is still pointless.''''
      """#
    #expect(
      render(fifteen)
        == #"{ quot15 = "Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"", "#
        + #"apos15 = "Here are fifteen apostrophes: '''''''''''''''", "#
        + #"str = "'That,' she said, 'is still pointless.'" }"#
    )
    expectError(
      "apos15 = '''Here are fifteen apostrophes: ''''''''''''''''''  # INVALID", at: 1, 48,
      "too many quotes")
  }

  @Test func integers() {
    #expect(
      render("int1 = +99\nint2 = 42\nint3 = 0\nint4 = -17")
        == "{ int1 = 99, int2 = 42, int3 = 0, int4 = -17 }")
    #expect(
      render("int5 = 1_000\nint6 = 5_349_221\nint7 = 53_49_221\nint8 = 1_2_3_4_5")
        == "{ int5 = 1000, int6 = 5349221, int7 = 5349221, int8 = 12345 }")
    #expect(
      render(
        "hex1 = 0xDEADBEEF\nhex2 = 0xdeadbeef\nhex3 = 0xdead_beef\noct1 = 0o01234567\n"
          + "oct2 = 0o755\nbin1 = 0b11010110"
      )
        == "{ hex1 = 3735928559, hex2 = 3735928559, hex3 = 3735928559, oct1 = 342391, "
        + "oct2 = 493, bin1 = 214 }"
    )
  }

  @Test func floats() {
    #expect(
      render(
        "flt1 = +1.0\nflt2 = 3.1415\nflt3 = -0.01\nflt4 = 5e+22\nflt5 = 1e06\n"
          + "flt6 = -2E-2\nflt7 = 6.626e-34"
      )
        == "{ flt1 = 1.0, flt2 = 3.1415, flt3 = -0.01, flt4 = 5e+22, flt5 = 1000000.0, "
        + "flt6 = -0.02, flt7 = 6.626e-34 }"
    )
    expectError("invalid_float_1 = .7", at: 1, 19, "expected a value")
    expectError("invalid_float_2 = 7.", at: 1, 21, "expected a digit after the decimal point")
    expectError("invalid_float_3 = 3.e+20", at: 1, 21, "expected a digit after the decimal point")
    #expect(render("flt8 = 224_617.445_991_228") == "{ flt8 = 224617.445991228 }")
    #expect(
      render("sf1 = inf\nsf2 = +inf\nsf3 = -inf\nsf4 = nan\nsf5 = +nan\nsf6 = -nan")
        == "{ sf1 = inf, sf2 = inf, sf3 = -inf, sf4 = nan, sf5 = nan, sf6 = nan }")
  }

  @Test func booleansAndDates() {
    #expect(render("bool1 = true\nbool2 = false") == "{ bool1 = true, bool2 = false }")
    #expect(
      render(
        "odt1 = 1979-05-27T07:32:00Z\nodt2 = 1979-05-27T00:32:00-07:00\n"
          + "odt3 = 1979-05-27T00:32:00.999999-07:00\nodt4 = 1979-05-27 07:32:00Z"
      )
        == "{ odt1 = 1979-05-27T07:32:00Z, odt2 = 1979-05-27T00:32:00-07:00, "
        + "odt3 = 1979-05-27T00:32:00.999999-07:00, odt4 = 1979-05-27T07:32:00Z }"
    )
    #expect(
      render("ldt1 = 1979-05-27T07:32:00\nldt2 = 1979-05-27T00:32:00.999999")
        == "{ ldt1 = 1979-05-27T07:32:00, ldt2 = 1979-05-27T00:32:00.999999 }")
    #expect(render("ld1 = 1979-05-27") == "{ ld1 = 1979-05-27 }")
    #expect(
      render("lt1 = 07:32:00\nlt2 = 00:32:00.999999") == "{ lt1 = 07:32:00, lt2 = 00:32:00.999999 }"
    )
  }

  @Test func tables() {
    #expect(render("[table]") == "{ table = {} }")
    #expect(
      render(
        "# [x] you\n# [x.y] don't\n# [x.y.z] need these\n[x.y.z.w] # for this to work\n\n"
          + "[x] # defining a super-table afterward is ok"
      ) == "{ x = { y = { z = { w = {} } } } }")
    expectError(
      "[fruit]\napple = \"red\"\n\n[fruit]\norange = \"orange\"", at: 4, 2, "defined twice")
    expectError(
      "[fruit]\napple = \"red\"\n\n[fruit.apple]\ntexture = \"smooth\"", at: 4, 8,
      "already a string")
    #expect(
      render("# VALID BUT DISCOURAGED\n[fruit.apple]\n[animal]\n[fruit.orange]")
        == "{ fruit = { apple = {}, orange = {} }, animal = {} }")
    #expect(
      render(
        "# Top-level table begins.\nname = \"Fido\"\nbreed = \"pug\"\n\n"
          + "# Top-level table ends.\n[owner]\nname = \"Regina Dogman\"\n"
          + "member_since = 1999-08-04"
      )
        == #"{ name = "Fido", breed = "pug", owner = { name = "Regina Dogman", "#
        + #"member_since = 1999-08-04 } }"#
    )
    #expect(
      render("fruit.apple.color = \"red\"\nfruit.apple.taste.sweet = true")
        == #"{ fruit = { apple = { color = "red", taste = { sweet = true } } } }"#)
    let nine = "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n\n"
    expectError(nine + "[fruit.apple]  # INVALID", at: 5, 8, "already defined by dotted keys")
    expectError(
      nine + "[fruit.apple.taste]  # INVALID", at: 5, 14, "already defined by dotted keys")
    #expect(
      render(nine + "[fruit.apple.texture]  # you can add sub-tables\nsmooth = true")
        == #"{ fruit = { apple = { color = "red", taste = { sweet = true }, "#
        + #"texture = { smooth = true } } } }"#
    )
  }

  @Test func inlineTables() {
    #expect(
      render(
        "name = { first = \"Tom\", last = \"Preston-Werner\" }\npoint = { x = 1, "
          + "y = 2 }\nanimal = { type.name = \"pug\" }"
      )
        == #"{ name = { first = "Tom", last = "Preston-Werner" }, point = { x = 1, y = 2 }, "#
        + #"animal = { type = { name = "pug" } } }"#
    )
    #expect(
      render("[product]\ntype = { name = \"Nail\" }\n# type.edible = false  # INVALID")
        == #"{ product = { type = { name = "Nail" } } }"#)
    expectError(
      "[product]\ntype = { name = \"Nail\" }\ntype.edible = false  # INVALID", at: 3, 1,
      "cannot extend inline table 'type'")
    expectError(
      "[product]\ntype.name = \"Nail\"\ntype = { edible = false }  # INVALID", at: 3, 1,
      "duplicate key 'type'")
    expectError(
      "a = { b = 1,\n c = 2 }", at: 1, 13, "newlines are not allowed inside an inline table")
    expectError("a = { b = 1, }", at: 1, 14, "trailing comma is not allowed in an inline table")
    expectError("a = { b = 1 # c\n}", at: 1, 13, "comments are not allowed inside an inline table")
    expectError("a = { b = 1", at: 1, 12, "unterminated inline table (opened at 1:5)")
    expectError("a = { b = 1 c = 2 }", at: 1, 13, "expected ',' or '}' after an inline table entry")
    expectError("a = { , }", at: 1, 7, "expected a key, found ','")
    expectError("a = { b }", at: 1, 9, "expected '=' after key, found '}'")
  }

  @Test func arraysOfTables() {
    expectError(
      "[[fruits]]\nname = \"apple\"\n\n[[fruits.varieties]]\nname = \"red delicious\"\n\n"
        + "[fruits.varieties]\nname = \"granny smith\"",
      at: 7, 9,
      "already an array of tables")
    expectError(
      "[[fruits]]\n[fruits.physical]\ncolor = \"red\"\n[[fruits.physical]]", at: 4, 10,
      "'fruits.physical' is already a table")
    expectError(
      "fruits = []\n\n[[fruits]] # Not allowed", at: 3, 3, "cannot append to static array 'fruits'")
  }
}
