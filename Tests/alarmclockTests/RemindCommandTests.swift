import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock remind ...` through the built binary, on a real hand-written list beside a
/// real config: only the touched reminder's bytes change, refusals leave the file as it was.
@Suite struct RemindCommandTests {
  static let list = """
    # Say these in the morning.   (hand-edited)

    [[reminder]]
    id = "bins"
    title = "Take the bins out"   # blue bin this week
    due = 2026-12-07T07:30:00

    # the dentist
    [[reminder]]
      title = "Dentist at 10"
      due = 2026-12-08
      notes = "Bring the insurance card."

    """

  struct Fixture {
    let dir: TempDir
    let config: String
    let list: String

    init(list text: String? = RemindCommandTests.list) throws {
      dir = try TempDir("remind")
      config = try dir.write("alarms.toml", "[[alarm]]\ntime = \"06:45\"\n")
      list = dir.file("reminders.toml")
      if let text { _ = try dir.write("reminders.toml", text) }
    }

    var text: String { (try? String(contentsOfFile: list, encoding: .utf8)) ?? "" }

    func run(_ args: [String], locale: String = "C.UTF-8") throws -> CLIResult {
      try CLI.run(["remind"] + args + ["--config", config], environment: ["LANG": locale])
    }

    func json(all: Bool = true) throws -> [[String: Any]] {
      let r = try run(["list", "--json"] + (all ? ["--all"] : []))
      #expect(r.status == 0, "\(r.stderr)")
      return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
    }
  }

  @Test func addTickMoveAndRemoveKeepTheRestOfTheFile() throws {
    let f = try Fixture()
    let add = try f.run(["add", "Buy milk", "--due", "2026-12-09", "--notes", "oat\nand soy"])
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.hasPrefix("added reminder 'buy-milk'\n3  [ ]  Buy milk  due "))
    #expect(f.text.hasPrefix(Self.list))
    #expect(
      f.text.dropFirst(Self.list.count)
        == "\n[[reminder]]\nid = \"buy-milk\"\ntitle = \"Buy milk\"\ndue = 2026-12-09\nnotes = \"oat\\nand soy\"\n"
    )

    let done = try f.run(["done", "bins"])
    #expect(done.status == 0)
    #expect(done.stdout.hasPrefix("reminder 'bins' is done now\n1  [x]  Take the bins out"))
    #expect(f.text.contains("due = 2026-12-07T07:30:00\ndone = true\n\n# the dentist"))
    let openList = try f.run(["list"]).stdout
    let allList = try f.run(["list", "--all"]).stdout
    #expect(!openList.contains("bins"))
    #expect(allList.contains("[x]  Take the bins out"))

    let move = try f.run(["move", "buy-milk", "--to", "1"])
    #expect(move.status == 0, "\(move.stderr)")
    let order = try f.json().map { $0["id"] as? String ?? "" }
    #expect(order == ["buy-milk", "bins", "dentist-at-10"])
    #expect(
      f.text.hasPrefix(
        "# Say these in the morning.   (hand-edited)\n\n[[reminder]]\nid = \"buy-milk\""))
    #expect(f.text.contains("# the dentist\n[[reminder]]\n  title = \"Dentist at 10\""))

    let remove = try f.run(["remove", "dentist-at-10"])
    #expect(remove.status == 0)
    #expect(!f.text.contains("dentist"))
    let undone = try f.run(["undone", "bins"])
    #expect(undone.status == 0)
    let open = try f.json(all: false)
    #expect(open.count == 2)
  }

  @Test func listJSONCarriesEveryField() throws {
    let f = try Fixture()
    _ = try f.run(["done", "bins"])
    let open = try f.json(all: false)
    #expect(open.count == 1)
    let dentist = try #require(open.first)
    #expect(dentist["id"] as? String == "dentist-at-10")
    #expect(dentist["title"] as? String == "Dentist at 10")
    #expect(dentist["notes"] as? String == "Bring the insurance card.")
    #expect(dentist["due"] as? String == "2026-12-08")
    #expect(dentist["done"] as? Bool == false)
    #expect(dentist["position"] as? Int == 2)
    #expect(dentist["photo"] is NSNull)
    let all = try f.json()
    let bins = try #require(all.first)
    #expect(bins["due"] as? String == "2026-12-07T07:30:00")
    #expect(bins["done"] as? Bool == true)
    #expect(bins["notes"] is NSNull)
  }

  @Test func chineseListing() throws {
    let f = try Fixture()
    let r = try f.run(["list"], locale: "zh_TW.UTF-8")
    #expect(r.stdout.contains("1  [ ]  Take the bins out  到期："))
    #expect(r.stdout.contains("上午 07:30  [bins]"))
    #expect(r.stdout.contains("     Bring the insurance card."))
    let empty = try Fixture(list: nil)
    let zh = try empty.run(["list"], locale: "zh_TW.UTF-8").stdout
    let en = try empty.run(["list"]).stdout
    #expect(zh == "提醒清單是空的\n")
    #expect(en == "the reminder list is empty\n")
  }

  @Test func theFirstAddCreatesTheListLikeTheConfig() throws {
    let f = try Fixture(list: nil)
    chmod(f.config, 0o640)
    let r = try f.run(["add", "倒垃圾", "--due", "2026-12-07T07:30:15"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      f.text == "[[reminder]]\nid = \"reminder\"\ntitle = \"倒垃圾\"\ndue = 2026-12-07T07:30:15\n")
    var st = stat()
    #expect(stat(f.list, &st) == 0)
    #expect(st.st_mode & 0o777 == 0o640)
  }

  @Test func refusalsLeaveTheFileByteIdentical() throws {
    let f = try Fixture()
    let before = f.text
    let cases: [([String], String, Int32)] = [
      (["done", "bin"], "no reminder has the id 'bin'; did you mean 'bins'?", 1),
      (["add", "x", "--id", "bins"], "id 'bins' is already used by the reminder at line 3", 1),
      (["add", "two\u{2028}lines"], "the title must be one line", 2),
      (["add", "x", "--due", "2026-02-30"], "--due 2026-02-30 does not exist", 2),
      (["add", "x", "--due", "2026-12-07T07:30+01:00"], "--due is local to the device", 2),
      (["edit", "bins"], "nothing to change", 2),
      (["move", "bins", "--to", "0"], "--to wants a whole number from 1", 2),
      (["frobnicate"], "unknown 'remind frobnicate'", 2),
    ]
    for (args, message, status) in cases {
      let r = try f.run(args)
      #expect(r.status == status, "\(args)")
      #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
      #expect(f.text == before, "\(args) changed the file")
    }
    // A list with errors is not edited: its errors with file:line:col come first.
    let broken = Self.list.replacingOccurrences(of: "due = 2026-12-08", with: "due = \"soon\"")
    try broken.write(toFile: f.list, atomically: false, encoding: .utf8)
    let r = try f.run(["done", "bins"])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("\(f.list):11:9: 'due' must be a date like 2026-12-04"))
    #expect(r.stderr.contains("\(f.list) has errors; fix them first"))
    #expect(f.text == broken)
    let list = try f.run(["list"])
    #expect(list.status == 1)
  }

  /// kill -9 at any moment of an edit leaves the old list or the new one, never a part.
  @Test func killedEditsLoseNothing() throws {
    let f = try Fixture()
    var lastCount = 2
    for round in 0..<24 {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: CLI.binary)
      p.arguments = ["remind", "add", "Item \(round)", "--config", f.config]
      p.standardOutput = FileHandle.nullDevice
      p.standardError = FileHandle.nullDevice
      try p.run()
      // Anywhere from before it reads the file to after it renamed the new one.
      usleep(UInt32(round % 8) * 1500)
      kill(p.processIdentifier, SIGKILL)
      p.waitUntilExit()
      let list = try f.json()
      #expect(list.count == lastCount || list.count == lastCount + 1, "round \(round)")
      #expect(f.text.hasPrefix(Self.list), "round \(round)")
      lastCount = list.count
    }
  }
}
