import AlarmCore
import Testing

/// The reminder list file: decoding with `line:col` diagnostics, and the editor that keeps
/// every byte it does not change.
@Suite struct ReminderListTests {
  static let list = """
    # Things to say in the morning.

    [[reminder]]
    id = "bins"
    title = "Take the bins out"   # blue bin
    due = 2026-12-07T07:30:00

    # the dentist
    [[reminder]]
    title = "Dentist at 10"
    due = 2026-12-08
    notes = "Bring the insurance card.\\nFloor 3."

    [[reminder]]
    title = "買牛奶"
    done = true
    """

  func decoded(_ text: String) throws -> ReminderList {
    let result = ReminderDecoder.decode(text, path: "reminders.toml")
    #expect(result.errors.isEmpty, "\(result.formatted)")
    return try #require(result.list)
  }

  func edit(_ e: ReminderEdit, _ text: String = list) throws -> ReminderEditResult {
    switch ReminderEditor.apply(e, to: text, path: "reminders.toml") {
    case .success(let r): return r
    case .failure(let error): throw Failure(error: error)
    }
  }

  func refusal(_ e: ReminderEdit, _ text: String = list) -> ReminderEditError? {
    if case .failure(let error) = ReminderEditor.apply(e, to: text, path: "reminders.toml") {
      return error
    }
    return nil
  }

  struct Failure: Error { var error: ReminderEditError }

  @Test func decodesEveryField() throws {
    let list = try decoded(Self.list)
    #expect(list.reminders.map(\.id) == ["bins", "dentist-at-10", "reminder"])
    #expect(
      list.reminders[0].due
        == .time(LocalDate(year: 2026, month: 12, day: 7), LocalTime(hour: 7, minute: 30)))
    #expect(list.reminders[1].due == .day(LocalDate(year: 2026, month: 12, day: 8)))
    #expect(list.reminders[1].notes == "Bring the insurance card.\nFloor 3.")
    #expect(list.reminders[2].title == "買牛奶")
    #expect(list.reminders[2].done)
    #expect(!list.reminders[0].done)
    #expect(list.sources[1].start.line == 9)
  }

  @Test func anEmptyFileIsAnEmptyList() throws {
    let empty = try decoded("")
    let commented = try decoded("# nothing yet\n")
    #expect(empty.reminders.isEmpty && commented.reminders.isEmpty)
  }

  @Test func everyProblemIsReportedWithItsPlace() {
    let text = """
      [[reminder]]
      titel = "Bins"
      due = "2026-02-30"

      [[reminder]]
      id = "Bins!"
      title = "two\\nlines"
      due = 2026-12-04T07:30:00+01:00
      photo = "../etc/passwd"

      [[reminder]]
      id = "x"
      title = "a"
      done = "yes"

      [[reminder]]
      id = "x"
      title = "b"
      """
    let result = ReminderDecoder.decode(text, path: "r.toml")
    #expect(result.list == nil)
    let lines = result.formatted
    #expect(
      lines.contains("r.toml:2:1: unknown key 'titel' in [[reminder]]; did you mean 'title'?"))
    #expect(
      lines.contains(
        "r.toml:1:1: this [[reminder]] has no 'title' (e.g. title = \"Take the bins out\")"))
    #expect(lines.contains("r.toml:3:7: 'due' 2026-02-30 does not exist"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("r.toml:6:6: 'id' must be lower-case letters") })
    #expect(lines.contains("r.toml:7:9: 'title' must be one line"))
    #expect(lines.contains { $0.hasPrefix("r.toml:8:7: 'due' is local to the device") })
    #expect(lines.contains { $0.hasPrefix("r.toml:9:9: 'photo' must be a file name") })
    #expect(lines.contains("r.toml:14:8: 'done' must be true or false, not a string"))
    #expect(lines.contains("r.toml:17:6: id 'x' is already used by the reminder at line 11"))
  }

  @Test func dueTextsAsTheCommandLineTakesThem() throws {
    let d = LocalDate(year: 2026, month: 12, day: 4)
    let day = try ReminderDue.parse("2026-12-04").get()
    let time = try ReminderDue.parse("2026-12-04T07:30").get()
    let spaced = try ReminderDue.parse("2026-12-04 07:30:15").get()
    #expect(day == .day(d))
    #expect(time == .time(d, LocalTime(hour: 7, minute: 30)))
    #expect(spaced == .time(d, LocalTime(hour: 7, minute: 30, second: 15)))
    #expect(ReminderDue.parse("2026-02-30").isFailure)
    #expect(ReminderDue.parse("2026-12-04T25:00").isFailure)
    #expect(ReminderDue.parse("tomorrow").isFailure)
    guard case .failure(let e) = ReminderDue.parse("2026-12-04T07:30+01:00") else {
      Issue.record("an offset was taken")
      return
    }
    #expect(e.message.contains("without an offset"))
    #expect(
      ReminderDue.time(d, LocalTime(hour: 7, minute: 30)).description == "2026-12-04T07:30:00")
  }

  @Test func dueInstantsFollowTheZoneAcrossDSTNights() throws {
    let berlin = try TimeZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")
    // 02:30 on the spring-forward night does not exist: the offset before the gap, 03:30 CEST.
    let gap = ReminderDue.time(
      LocalDate(year: 2027, month: 3, day: 28), LocalTime(hour: 2, minute: 30))
    #expect(ISO8601Text.format(gap.instant(in: berlin), in: berlin) == "2027-03-28T03:30:00+02:00")
    // 02:30 on the fall-back night happens twice: the first.
    let twice = ReminderDue.time(
      LocalDate(year: 2027, month: 10, day: 31), LocalTime(hour: 2, minute: 30))
    #expect(
      ISO8601Text.format(twice.instant(in: berlin), in: berlin) == "2027-10-31T02:30:00+02:00")
    let day = ReminderDue.day(LocalDate(year: 2027, month: 3, day: 28))
    #expect(ISO8601Text.format(day.instant(in: berlin), in: berlin) == "2027-03-28T00:00:00+01:00")
  }

  @Test func addAppendsABlockWithAnIDFromTheTitle() throws {
    let r = try edit(
      .add(
        ReminderChanges(values: [
          .title: .string("Take the bins out"),
          .due: .due(.day(LocalDate(year: 2026, month: 12, day: 9))),
        ])))
    #expect(r.id == "take-the-bins-out")
    #expect(r.text.hasPrefix(Self.list))
    #expect(
      r.text.dropFirst(Self.list.count)
        == "\n\n[[reminder]]\nid = \"take-the-bins-out\"\ntitle = \"Take the bins out\"\ndue = 2026-12-09\n"
    )
    #expect(r.list.reminders.last?.title == "Take the bins out")
    // The same title again gets a suffix; a title with no letters for an id gets `reminder-N`.
    let again = try edit(
      .add(ReminderChanges(values: [.title: .string("Take the bins out")])), r.text)
    #expect(again.id == "take-the-bins-out-2")
    let chinese = try edit(.add(ReminderChanges(values: [.title: .string("倒垃圾")])), r.text)
    #expect(chinese.id == "reminder-2")
    // `new` is the page's add form: a reminder called "New" is `new-reminder`, and the
    // id itself is refused.
    let new = try edit(.add(ReminderChanges(values: [.title: .string("New")])), r.text)
    #expect(new.id == "new-reminder")
    let written = ReminderDecoder.decode(
      "[[reminder]]\nid = \"new\"\ntitle = \"x\"\n", path: "r.toml")
    #expect(written.formatted.first?.hasPrefix("r.toml:2:6: 'id' \"new\" is reserved") == true)
    #expect(ReminderKey.id.parse("new").isFailure)
  }

  @Test func addToAFileNotYetWritten() throws {
    let r = try edit(.add(ReminderChanges(values: [.title: .string("Bins")])), "")
    #expect(r.text == "[[reminder]]\nid = \"bins\"\ntitle = \"Bins\"\n")
  }

  @Test func doneAndUndoneTouchOnlyThatBlock() throws {
    let done = try edit(.setDone(id: "bins", true))
    #expect(done.text.contains("due = 2026-12-07T07:30:00\ndone = true\n\n# the dentist"))
    #expect(done.list.reminder(id: "bins")?.done == true)
    let undone = try edit(.setDone(id: "bins", false), done.text)
    #expect(undone.text == Self.list)
    let already = try edit(.setDone(id: "bins", false))
    #expect(!already.changed)
    #expect(already.text == Self.list)
  }

  @Test func editingADerivedIDWritesIt() throws {
    let r = try edit(
      .edit(id: "dentist-at-10", ReminderChanges(values: [.title: .string("Dentist at 11")])))
    #expect(r.id == "dentist-at-10")
    #expect(r.text.contains("[[reminder]]\nid = \"dentist-at-10\"\ntitle = \"Dentist at 11\""))
    #expect(r.notes.contains { $0.contains("wrote id = \"dentist-at-10\"") })
  }

  @Test func editRemovesNotesAndKeepsComments() throws {
    let r = try edit(
      .edit(id: "bins", ReminderChanges(values: [.title: .string("Bins")], unset: [.due])))
    #expect(r.text.contains("id = \"bins\"\ntitle = \"Bins\"   # blue bin\n\n# the dentist"))
  }

  @Test func removeTakesTheCommentAboveTheBlock() throws {
    let r = try edit(.remove(id: "dentist-at-10"))
    #expect(!r.text.contains("the dentist"))
    #expect(r.list.reminders.map(\.title) == ["Take the bins out", "買牛奶"])
    #expect(r.text.hasPrefix("# Things to say in the morning.\n\n[[reminder]]\nid = \"bins\""))
  }

  @Test func moveReordersTheBlocksWithTheirComments() throws {
    let top = try edit(.move(id: "reminder", position: 1))
    #expect(top.list.reminders.map(\.title) == ["買牛奶", "Take the bins out", "Dentist at 10"])
    #expect(
      top.text.hasPrefix(
        "# Things to say in the morning.\n\n[[reminder]]\ntitle = \"買牛奶\"\ndone = true\n\n[[reminder]]\nid = \"bins\""
      ))
    #expect(top.text.hasSuffix("notes = \"Bring the insurance card.\\nFloor 3.\""))
    let bottom = try edit(.move(id: "dentist-at-10", position: 99))
    #expect(bottom.list.reminders.map(\.title) == ["Take the bins out", "買牛奶", "Dentist at 10"])
    #expect(
      bottom.text.contains("done = true\n\n# the dentist\n[[reminder]]\ntitle = \"Dentist at 10\""))
    // Back where it was: the same bytes.
    let back = try edit(.move(id: "dentist-at-10", position: 2), bottom.text)
    #expect(back.text == Self.list)
    let same = try edit(.move(id: "bins", position: 1))
    #expect(!same.changed)
  }

  @Test func inlineListsAreEditedInPlace() throws {
    let text = "reminder = [{ title = \"A\" }, { id = \"b\", title = \"B\" }]  # short\n"
    let added = try edit(.add(ReminderChanges(values: [.title: .string("C")])), text)
    #expect(
      added.text
        == "reminder = [{ title = \"A\" }, { id = \"b\", title = \"B\" }, { id = \"c\", title = \"C\" }]  # short\n"
    )
    let moved = try edit(.move(id: "b", position: 1), text)
    #expect(
      moved.text == "reminder = [{ id = \"b\", title = \"B\" }, { title = \"A\" }]  # short\n")
    let removed = try edit(.remove(id: "b"), text)
    #expect(removed.text == "reminder = [{ title = \"A\" }]  # short\n")
  }

  @Test func refusalsSayWhy() {
    guard case .unknownReminder(_, let near, _)? = refusal(.setDone(id: "bin", true)) else {
      Issue.record("no refusal")
      return
    }
    #expect(near == ["bins"])
    guard
      case .refused(let why)? = refusal(
        .add(ReminderChanges(values: [.title: .string("x"), .id: .string("bins")])))
    else {
      Issue.record("a taken id was accepted")
      return
    }
    #expect(why == "id 'bins' is already used by the reminder at line 3")
    guard
      case .invalidResult(let result)? = refusal(
        .edit(id: "bins", ReminderChanges(values: [.title: .string("a\nb")])))
    else {
      Issue.record("a two-line title was accepted")
      return
    }
    #expect(result.formatted == ["reminders.toml:5:9: 'title' must be one line"])
    guard case .invalidList? = refusal(.setDone(id: "bins", true), "[[reminder]]\ntitle = 3\n")
    else {
      Issue.record("a broken list was edited")
      return
    }
  }
}

extension Result {
  fileprivate var isFailure: Bool {
    if case .failure = self { return true }
    return false
  }
}

@Suite struct ReminderPhotoTests {
  @Test func imagesAreKnownByTheirBytes() {
    #expect(ReminderPhoto.mediaType(of: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == "image/jpeg")
    #expect(
      ReminderPhoto.mediaType(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])
        == "image/png")
    #expect(ReminderPhoto.mediaType(of: Array("GIF89a....".utf8)) == "image/gif")
    #expect(ReminderPhoto.mediaType(of: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
    #expect(ReminderPhoto.mediaType(of: Array("<html><body>".utf8)) == nil)
    #expect(ReminderPhoto.mediaType(of: Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == nil)
    #expect(ReminderPhoto.mediaType(of: [UInt8]()) == nil)
  }
}
