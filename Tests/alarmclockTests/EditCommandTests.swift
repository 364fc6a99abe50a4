import AudioTestSupport
import Foundation
import Testing

/// `add`, `edit`, `remove`, `enable` and `disable` through the built binary, on a real
/// hand-written config: only the touched alarm's bytes change and the result passes `check`.
@Suite struct EditCommandTests {
  static let config = """
    # Bedroom alarms -- edited by hand, too.
    [settings]
    timezone = "Europe/Berlin"   # home

    [defaults]
    volume=60


    # Work days. Do not touch!
    [[alarm]]
      label   = "Work"
      days = ["mon","tue","wed",
              "thu","fri"]    # no holidays yet
      time = "06:45"

    [[alarm]]  # weekends
    enabled = false
    id = "lazy"
    time = 09:30:00
    # sound = "birds"

    [[alarm]]
    time="13:00"
    label="Nap"
    """

  struct Fixture {
    let dir: TempDir
    let path: String
    let original: [UInt8]

    init(_ text: String = EditCommandTests.config) throws {
      dir = try TempDir("edit")
      path = try dir.write("alarms.toml", text)
      original = Array(text.utf8)
    }

    var bytes: [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
    var text: String { String(decoding: bytes, as: UTF8.self) }

    func run(_ args: [String]) throws -> CLIResult {
      try CLI.run(args + ["--config", path])
    }

    /// Bytes before the text `from` and after the text `to` (both in the original) are
    /// the same in the file now.
    func expectUnchanged(before from: String, after to: String?) {
      let o = original
      let n = bytes
      let start = offset(of: from, in: o)
      #expect(Array(n.prefix(start)) == Array(o.prefix(start)), "prefix changed")
      guard let to else { return }
      let end = offset(of: to, in: o)
      let tail = o.count - end
      #expect(Array(n.suffix(tail)) == Array(o.suffix(tail)), "suffix changed")
    }

    func expectValid() throws {
      let r = try run(["check"])
      #expect(r.status == 0, "\(r.stderr)\n\(text)")
    }
  }

  static func offset(of needle: String, in bytes: [UInt8]) -> Int {
    let n = Array(needle.utf8)
    for i in 0...(bytes.count - n.count) where Array(bytes[i..<(i + n.count)]) == n { return i }
    return -1
  }

  @Test func addAppendsAndPrintsIDAndNextFiring() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run([
      "add", "07:15", "--days", "sat,sun", "--label", "Brunch \"late\"", "--volume", "90",
      "--snooze", "5m", "--skip", "2027-12-25", "--ring-for", "15m",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("added alarm 'brunch-late-0715'\nnext: "))
    #expect(r.stdout.contains(" 07:15 Brunch \"late\" (in "))
    #expect(Array(f.bytes.prefix(f.original.count)) == f.original)
    #expect(
      f.text.hasSuffix(
        "label=\"Nap\"\n\n[[alarm]]\ntime = \"07:15\"\ndays = [\"sat\", \"sun\"]\n"
          + "label = \"Brunch \\\"late\\\"\"\nvolume = 90\nsnooze = \"5m\"\nring_for = \"15m\"\n"
          + "skip = [2027-12-25]\n"))
    try f.expectValid()
    let list = try f.run(["list"])
    #expect(list.stdout.contains("[brunch-late-0715]"))
  }

  @Test func editPinsTheDerivedIDAndTouchesOnlyItsBlock() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run(["edit", "work-0645", "--time", "06:30", "--sound", "gentle"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("note: wrote id = \"work-0645\""))
    #expect(r.stdout.contains("changed alarm 'work-0645'"))
    f.expectUnchanged(before: "[[alarm]]\n  label", after: "[[alarm]]  # weekends")
    #expect(
      f.text.contains(
        "[[alarm]]\n  id = \"work-0645\"\n  label   = \"Work\"\n  days = [\"mon\",\"tue\",\"wed\",\n"
          + "          \"thu\",\"fri\"]    # no holidays yet\n  time = \"06:30\"\n  sound = \"gentle\"\n"
      ))
    try f.expectValid()
    // The id stayed: the next edit finds it.
    let again = try f.run(["edit", "work-0645", "--unset", "sound", "--label", "Office"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(!f.text.contains("gentle"))
    #expect(f.text.contains("  label   = \"Office\"\n"))
  }

  @Test func soundOrderIsWrittenCheckedAndUnset() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run(["edit", "work-0645", "--sound", "mornings/", "--sound-order", "rotate"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(f.text.contains("  sound = \"mornings/\"\n  sound_order = \"rotate\"\n"))
    try f.expectValid()
    let bad = try f.run(["edit", "work-0645", "--sound-order", "random"])
    #expect(bad.status != 0)
    #expect(
      bad.stderr.contains(
        "--sound-order wants shuffle or rotate, not \"random\"; did you mean 'shuffle'?"),
      "\(bad.stderr)")
    let unset = try f.run(["edit", "work-0645", "--unset", "sound-order"])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(!f.text.contains("sound_order"))
  }

  @Test func maxSnoozesIsWrittenCheckedAndUnset() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run(["edit", "work-0645", "--max-snoozes", "3"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(f.text.contains("max_snoozes = 3\n"), "\(f.text)")
    try f.expectValid()
    let bad = try f.run(["edit", "work-0645", "--max-snoozes", "1001"])
    #expect(bad.status != 0)
    #expect(
      bad.stderr.contains("--max-snoozes wants a whole number from 0 to 1000, not \"1001\""),
      "\(bad.stderr)")
    let unset = try f.run(["edit", "work-0645", "--unset", "max-snoozes"])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(!f.text.contains("max_snoozes"))
  }

  /// Escalation from the command line: written as the file writes it, checked by the
  /// config's own rules (a warning when it would come after the ring ends), `off` as false.
  @Test func escalationIsWrittenCheckedAndUnset() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run([
      "edit", "work-0645", "--escalate-after", "2m", "--escalate-volume", "100",
      "--escalate-sound", "birds",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      f.text.contains("escalate_after = \"2m\"\n") && f.text.contains("escalate_volume = 100\n")
        && f.text.contains("escalate_sound = \"birds\"\n"), "\(f.text)")
    try f.expectValid()
    let off = try f.run(["edit", "work-0645", "--escalate-after", "off"])
    #expect(off.status == 0 && f.text.contains("escalate_after = false\n"), "\(f.text)")
    let bad = try f.run(["edit", "work-0645", "--escalate-after", "soon"])
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("--escalate-after wants a duration like"), "\(bad.stderr)")
    let unset = try f.run([
      "edit", "work-0645", "--unset", "escalate-after", "--unset", "escalate_volume",
      "--unset", "escalate_sound",
    ])
    #expect(unset.status == 0, "\(unset.stderr)")
    #expect(!f.text.contains("escalate_"), "\(f.text)")
  }

  @Test func enableAndDisableChangeOneLine() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let on = try f.run(["enable", "lazy"])
    #expect(on.status == 0, "\(on.stderr)")
    #expect(on.stdout.hasPrefix("enabled alarm 'lazy'\nnext: "))
    f.expectUnchanged(before: "enabled = false", after: "\nid = \"lazy\"")
    #expect(f.text.contains("[[alarm]]  # weekends\nenabled = true\nid = \"lazy\""))
    try f.expectValid()
    let before = f.bytes
    let again = try f.run(["enable", "lazy"])
    #expect(again.stdout.hasPrefix("alarm 'lazy' already is enabled"))
    #expect(f.bytes == before)

    let g = try Fixture()
    defer { g.dir.remove() }
    let off = try g.run(["disable", "nap-1300"])
    #expect(off.status == 0, "\(off.stderr)")
    // The file had no trailing newline; it still has none.
    #expect(g.text == Self.config + "\nenabled = false")
    try g.expectValid()
  }

  @Test func removeDeletesTheBlockAndItsLeadingComment() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run(["remove", "work-0645"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "removed alarm 'work-0645'\n")
    f.expectUnchanged(before: "# Work days.", after: "[[alarm]]  # weekends")
    #expect(f.text.contains("volume=60\n\n\n[[alarm]]  # weekends\n"))
    try f.expectValid()
    let last = try f.run(["remove", "nap-1300"])
    #expect(last.status == 0)
    #expect(f.text.hasSuffix("time = 09:30:00\n# sound = \"birds\"\n"))
    try f.expectValid()
  }

  @Test func crlfAndInlineTables() throws {
    let crlf = "# a\r\n[[alarm]]\r\ntime = \"06:00\"\r\n"
    let f = try Fixture(crlf)
    defer { f.dir.remove() }
    #expect(try f.run(["disable", "alarm-0600"]).status == 0)
    #expect(try f.run(["add", "07:00", "--id", "seven"]).status == 0)
    #expect(
      f.text
        == "# a\r\n[[alarm]]\r\ntime = \"06:00\"\r\nenabled = false\r\n\r\n[[alarm]]\r\n"
        + "id = \"seven\"\r\ntime = \"07:00\"\r\n")
    try f.expectValid()

    let inline = "alarm = [ { id = \"a\", time = \"06:00\" }, {time=\"07:00\"} ] # two\n"
    let g = try Fixture(inline)
    defer { g.dir.remove() }
    #expect(try g.run(["edit", "a", "--label", "Up"]).status == 0)
    #expect(
      g.text
        == "alarm = [ { id = \"a\", time = \"06:00\", label = \"Up\" }, {time=\"07:00\"} ] # two\n")
    #expect(try g.run(["remove", "a"]).status == 0)
    #expect(g.text == "alarm = [ {time=\"07:00\"} ] # two\n")
    try g.expectValid()
  }

  @Test func anInvalidEditIsRefusedAndTheFileUntouched() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run(["edit", "work-0645", "--date", "2030-01-01"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("the edit would make the config invalid; nothing was changed"))
    #expect(r.stderr.contains("\(f.path):"))
    #expect(r.stderr.contains("'date' cannot be combined with 'days'"))
    #expect(f.bytes == f.original)
    let taken = try f.run(["add", "08:00", "--id", "lazy"])
    #expect(taken.status == 1)
    #expect(taken.stderr.contains("id 'lazy' is already used"))
    #expect(f.bytes == f.original)
    let usage = try f.run(["add", "8:00"])
    #expect(usage.status == 2)
    #expect(usage.stderr.contains("TIME wants a time like 06:45"))
    #expect(f.bytes == f.original)
  }

  @Test func terminalEscapesAndLongLabelsAreRefusedByAddAndEdit() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    for (args, problem) in [
      (["add", "07:00", "--label", "\u{1B}]0;owned\u{07}"], "the control character U+001B"),
      (["edit", "lazy", "--label", "abc\u{202E}fed"], "the bidi control U+202E"),
      (["add", "07:00", "--label", String(repeating: "z", count: 201)], "too long"),
    ] {
      let r = try f.run(args)
      #expect(r.status == 2)
      #expect(r.stderr.contains("--label wants one line of at most 200 characters"))
      #expect(r.stderr.contains(problem))
      #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\u{202E}"))
      #expect(f.bytes == f.original)
    }
    let cjk = try f.run(["add", "07:00", "--label", "起床 ⏰"])
    #expect(cjk.status == 0)
    #expect(f.text.contains("label = \"起床 ⏰\""))
  }

  @Test func aLabelWithAnEscapeInTheFileIsAConfigError() throws {
    let f = try Fixture("[[alarm]]\ntime = \"06:45\"\nlabel = \"\\u001B[2J\"\n")
    defer { f.dir.remove() }
    let r = try f.run(["list"])
    #expect(r.status == 1)
    #expect(
      r.stderr.contains(
        "\(f.path):3:9: 'label' must not contain the control character U+001B"))
    #expect(!r.stdout.contains("\u{1B}") && !r.stderr.contains("\u{1B}"))
  }

  @Test func unknownIDListsNearMatches() throws {
    let f = try Fixture()
    defer { f.dir.remove() }
    let r = try f.run(["remove", "lazzy"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("no alarm has the id 'lazzy'; did you mean 'lazy'?"))
    let far = try f.run(["disable", "zzzzzz"])
    #expect(far.status == 1)
    #expect(far.stderr.contains("the ids are 'work-0645', 'lazy', 'nap-1300'"))
    #expect(f.bytes == f.original)
  }

  @Test func aBrokenConfigIsNotEdited() throws {
    let f = try Fixture("[[alarm]]\ntime = \"25:00\"\n")
    defer { f.dir.remove() }
    let r = try f.run(["add", "06:00"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(f.path):2:8: "))
    #expect(r.stderr.contains("fix them first"))
    #expect(f.bytes == f.original)
  }
}
