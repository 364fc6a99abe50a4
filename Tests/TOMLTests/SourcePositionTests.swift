import Testing

@testable import TOML

/// Positions of keys, values and headers, which the config layer and the
/// config editor rely on.
@Suite struct SourcePositionTests {
  let text = """
    # alarms
    [defaults]
    sound = "chime.mp3"

    [[alarm]]
    time = 06:45:00 # early
    label = "Wörk ☀"
    days.list = ["mon", "tue"]

    [[alarm]]
    time = 07:30:00
    """

  @Test func keyAndValueRanges() throws {
    let d = try TOMLParser.parse(text)
    guard case .table(let defaults) = d.root["defaults"], let sound = defaults.entry("sound")
    else {
      Issue.record("no defaults.sound")
      return
    }
    #expect(sound.keyRange.start == SourcePosition(line: 3, column: 1, offset: 20))
    #expect(sound.keyRange.end == SourcePosition(line: 3, column: 6, offset: 25))
    #expect(sound.node.range.start == SourcePosition(line: 3, column: 9, offset: 28))
    #expect(sound.node.range.end == SourcePosition(line: 3, column: 20, offset: 39))

    let label = try #require(node(d, "alarm.0.label"))
    #expect(label.range.start.line == 7 && label.range.start.column == 9)
    // Columns count scalars: "Wörk ☀" is 8 scalars with quotes, 11 bytes.
    #expect(label.range.end.column == 17)
    #expect(label.range.end.offset - label.range.start.offset == 11)

    // The last segment of a dotted key carries the entry's key range.
    guard case .table(let days) = lookup(d, "alarm.0.days"),
      let list = days.entry("list")
    else {
      Issue.record("no days.list")
      return
    }
    #expect(list.keyRange.start.line == 8 && list.keyRange.start.column == 6)
    #expect(list.node.range.start.column == 13 && list.node.range.end.column == 27)
  }

  @Test func headersInSourceOrder() throws {
    let d = try TOMLParser.parse(text)
    #expect(d.headers.map(\.path) == [["defaults"], ["alarm"], ["alarm"]])
    #expect(d.headers.map(\.isArrayOfTables) == [false, true, true])
    let second = d.headers[1]
    #expect(second.range.start == SourcePosition(line: 5, column: 1, offset: 41))
    #expect(second.range.end == SourcePosition(line: 5, column: 10, offset: 50))
    #expect(second.lineStart == second.range.start)
    #expect(d.byteCount == text.utf8.count)

    // The element tables carry their header's range.
    let element = try #require(node(d, "alarm.1"))
    guard case .table(let t) = element.value else {
      Issue.record("alarm.1 is not a table")
      return
    }
    #expect(t.headerRange == d.headers[2].range)
    #expect(element.range == d.headers[2].range)

    // One block runs from its header's line start to the next header's.
    let start = d.headers[1].lineStart.offset
    let end = d.headers[2].lineStart.offset
    let block = String(decoding: Array(text.utf8)[start..<end], as: UTF8.self)
    #expect(block.hasPrefix("[[alarm]]\ntime = 06:45:00"))
    #expect(block.hasSuffix("\"tue\"]\n\n"))
  }

  @Test func indentedHeaderLineStart() throws {
    let d = try TOMLParser.parse("a = 1\n  [ t . u ]  # c\n")
    let header = try #require(d.headers.first)
    #expect(header.path == ["t", "u"])
    #expect(header.lineStart == SourcePosition(line: 2, column: 1, offset: 6))
    #expect(header.range.start == SourcePosition(line: 2, column: 3, offset: 8))
    #expect(header.range.end == SourcePosition(line: 2, column: 12, offset: 17))
  }

  @Test func positionsAfterMultilineStrings() throws {
    let d = try TOMLParser.parse("s = \"\"\"\nline one\nline two\"\"\"\nn = 5\n")
    let s = try #require(node(d, "s"))
    #expect(s.range.start == SourcePosition(line: 1, column: 5, offset: 4))
    #expect(s.range.end == SourcePosition(line: 3, column: 12, offset: 28))
    let n = try #require(d.root.entry("n"))
    #expect(n.keyRange.start == SourcePosition(line: 4, column: 1, offset: 29))
  }

  @Test func entriesKeepSourceOrder() throws {
    let d = try TOMLParser.parse("z = 1\na = 2\n[m]\nk = 3\n[b]\n[m.sub]")
    #expect(d.root.keys == ["z", "a", "m", "b"])
    guard case .table(let m) = d.root["m"] else {
      Issue.record("no m")
      return
    }
    #expect(m.keys == ["k", "sub"])
  }

  @Test func implicitTablesPointAtTheirKey() throws {
    let d = try TOMLParser.parse("\n[a.b]\n")
    let a = try #require(d.root.entry("a"))
    #expect(a.keyRange.start == SourcePosition(line: 2, column: 2, offset: 2))
    #expect(a.node.range == a.keyRange)
  }
}
