import AlarmCore
import AudioTestSupport
import Testing

/// The pure config editor on real, hand-written configs: every byte outside the touched
/// alarm stays, the result decodes, refusals say why.
@Suite struct ConfigEditorTests {
  static let messy = """
    # Alarms for the bedroom Pi.   (hand-edited)

    [settings]
    timezone   =   "Europe/Berlin"    # home

    [defaults]
    volume = 70


    # ---- work ----
    [[alarm]]
    label="Work"   # the boss
       days = [ "mon", "tue",
                "wed", "thu", "fri" ]   # weekdays
    time = "06:45"
    # ring_for = "5m"

    # weekend, explicit id
    [[alarm]]
    enabled = false
    id = "weekend"
    time = 09:30:00
    skip = ["2027-12-25"]

    [[alarm]]   # nap
    time = "13:30"
    label = "Nap"
    """

  func edit(_ e: ConfigEdit, _ text: String = messy) throws -> ConfigEditResult {
    switch ConfigEditor.apply(e, to: text, path: "alarms.toml", now: nil) {
    case .success(let r): return r
    case .failure(let error): throw EditFailure(error: error)
    }
  }

  struct EditFailure: Error { var error: ConfigEditError }

  /// The original's bytes before and after `block` are the new text's prefix and suffix.
  func expectOnlyBlockChanged(_ old: String, _ new: String, block: Range<Int>) {
    let o = Array(old.utf8)
    let n = Array(new.utf8)
    #expect(n.count >= o.count - block.count)
    #expect(Array(n.prefix(block.lowerBound)) == Array(o.prefix(block.lowerBound)))
    let tail = o.count - block.upperBound
    #expect(Array(n.suffix(tail)) == Array(o.suffix(tail)))
  }

  func source(_ id: String, _ text: String = messy) -> AlarmSource {
    ConfigDecoder.decode(text, path: "x", now: nil).config!.alarmSources[id]!
  }

  @Test func editChangesValuesInPlaceAndKeepsComments() throws {
    let r = try edit(
      .edit(id: "weekend", AlarmChanges(values: [.time: .time(LocalTime(hour: 10, minute: 0))])))
    #expect(r.text.contains("time = 10:00:00\n"))  // stays a TOML local time
    #expect(r.notes.isEmpty)  // explicit id: nothing to pin
    expectOnlyBlockChanged(Self.messy, r.text, block: source("weekend").block)
    #expect(r.config.alarm(id: "weekend")?.time == LocalTime(hour: 10, minute: 0))
  }

  @Test func editOfDerivedIDPinsIt() throws {
    let r = try edit(
      .edit(id: "work-0645", AlarmChanges(values: [.label: .string("Office \"HQ\"")])))
    #expect(r.alarmID == "work-0645")
    #expect(r.notes.count == 1)
    #expect(
      r.text.contains("[[alarm]]\nid = \"work-0645\"\nlabel=\"Office \\\"HQ\\\"\"   # the boss\n"))
    #expect(r.text.contains("\n   days = [ \"mon\", \"tue\",\n"))  // untouched multi-line value
    #expect(r.config.alarm(id: "work-0645")?.label == "Office \"HQ\"")
    expectOnlyBlockChanged(Self.messy, r.text, block: source("work-0645").block)
  }

  @Test func newKeysGoAfterTheLastKeyAndRemovedKeysLoseTheirLines() throws {
    let r = try edit(
      .edit(
        id: "work-0645",
        AlarmChanges(
          values: [.volume: .integer(40), .snooze: .boolean(false)], unset: [.days],
          addSkips: [.day(LocalDate(year: 2027, month: 12, day: 24))])))
    #expect(!r.text.contains("\"wed\""))
    #expect(
      r.text.contains(
        "time = \"06:45\"\nvolume = 40\nsnooze = false\nskip = [2027-12-24]\n# ring_for"))
    let alarm = try #require(r.config.alarm(id: "work-0645"))
    #expect(alarm.days.isEmpty && alarm.volume == 40 && alarm.snooze == nil)
    expectOnlyBlockChanged(Self.messy, r.text, block: source("work-0645").block)
  }

  @Test func skipDatesAreAppendedInTheListsStyle() throws {
    let r = try edit(
      .edit(
        id: "weekend",
        AlarmChanges(addSkips: [
          .day(LocalDate(year: 2027, month: 12, day: 25)),
          .day(LocalDate(year: 2028, month: 1, day: 1)),
          .range(
            DateRange(
              from: LocalDate(year: 2028, month: 7, day: 19),
              to: LocalDate(year: 2028, month: 7, day: 30))),
        ])))
    #expect(
      r.text.contains(
        "skip = [\"2027-12-25\", \"2028-01-01\", { from = 2028-07-19, to = 2028-07-30 }]\n"))
    #expect(r.config.alarm(id: "weekend")?.skipRanges.count == 1)
  }

  /// The page and the API set the whole `skip` list, ranges included; a listed entry is not
  /// added twice.
  @Test func aWholeSkipListWithRangesReplacesTheOldOne() throws {
    let vacation = SkipEntry.range(
      DateRange(
        from: LocalDate(year: 2027, month: 7, day: 19), to: LocalDate(year: 2027, month: 7, day: 30)
      ))
    let christmas = SkipEntry.day(LocalDate(year: 2027, month: 12, day: 24))
    let r = try edit(
      .edit(id: "weekend", AlarmChanges(values: [.skip: .skips([vacation, christmas])])))
    #expect(r.text.contains("skip = [{ from = 2027-07-19, to = 2027-07-30 }, 2027-12-24]\n"))
    let alarm = try #require(r.config.alarm(id: "weekend"))
    #expect(SkipEntry.entries(of: alarm) == [vacation, christmas])
    let again = try edit(.edit(id: "weekend", AlarmChanges(addSkips: [christmas])), r.text)
    #expect(!again.changed)
  }

  @Test func enableAndDisable() throws {
    let on = try edit(.enable(id: "weekend"))
    #expect(on.text.contains("[[alarm]]\nenabled = true\nid = \"weekend\""))
    expectOnlyBlockChanged(Self.messy, on.text, block: source("weekend").block)
    let again = try edit(.enable(id: "weekend"), on.text)
    #expect(!again.changed && again.text == on.text)
    let off = try edit(.disable(id: "nap-1330"))
    // The block's header line has a comment and the file no trailing newline.
    #expect(off.text.hasSuffix("label = \"Nap\"\nenabled = false"))
    #expect(off.config.alarm(id: "nap-1330")?.enabled == false)
    expectOnlyBlockChanged(Self.messy, off.text, block: source("nap-1330").block)
  }

  @Test func removeTakesTheLeadingCommentAndLeavesTheNextOne() throws {
    let r = try edit(.remove(id: "work-0645"))
    #expect(!r.text.contains("Work") && !r.text.contains("---- work"))
    #expect(!r.text.contains("ring_for"))
    #expect(r.text.contains("volume = 70\n\n\n# weekend, explicit id\n[[alarm]]\nenabled = false"))
    #expect(r.config.alarms.map(\.id) == ["weekend", "nap-1330"])
    let touched = try #require(r.touched)
    expectOnlyBlockChanged(Self.messy, r.text, block: touched)
    let block = source("work-0645").block
    #expect(touched.upperBound <= block.upperBound)
  }

  @Test func removeOfTheLastAlarmTakesItsSeparatingBlankLines() throws {
    let r = try edit(.remove(id: "nap-1330"))
    #expect(r.text.hasSuffix("skip = [\"2027-12-25\"]\n"))
  }

  @Test func addAppendsABlockAfterABlankLine() throws {
    let changes = AlarmChanges(
      values: [
        .time: .time(LocalTime(hour: 7, minute: 5, second: 30)), .label: .string("Tea \"Time\""),
        .days: .strings(["sat", "sun"]), .id: .string("tea"),
      ])
    let r = try edit(.add(changes))
    #expect(
      r.text == Self.messy
        + "\n\n[[alarm]]\nid = \"tea\"\ntime = \"07:05:30\"\ndays = [\"sat\", \"sun\"]\n"
        + "label = \"Tea \\\"Time\\\"\"\n")
    #expect(r.alarmID == "tea")
    let empty = try edit(
      .add(AlarmChanges(values: [.time: .time(LocalTime(hour: 6, minute: 0))])), "")
    #expect(empty.text == "[[alarm]]\ntime = \"06:00\"\n")
    #expect(empty.alarmID == "alarm-0600")
    let blank = try edit(
      .add(AlarmChanges(values: [.time: .time(LocalTime(hour: 6, minute: 0))])), "# x\n\n")
    #expect(blank.text == "# x\n\n[[alarm]]\ntime = \"06:00\"\n")
  }

  @Test func crlfFilesGetCRLFLines() throws {
    let text =
      "# alarms\r\n[[alarm]]\r\ntime = \"06:45\"\r\nlabel = \"Work\"\r\n\r\n"
      + "[[alarm]]\r\nid = \"b\"\r\ntime = \"07:00\"\r\n"
    let r = try edit(
      .edit(id: "work-0645", AlarmChanges(values: [.time: .time(LocalTime(hour: 6, minute: 50))])),
      text)
    #expect(
      r.text
        == "# alarms\r\n[[alarm]]\r\nid = \"work-0645\"\r\ntime = \"06:50\"\r\n"
        + "label = \"Work\"\r\n\r\n[[alarm]]\r\nid = \"b\"\r\ntime = \"07:00\"\r\n"
    )
    let added = try edit(
      .add(AlarmChanges(values: [.time: .time(LocalTime(hour: 8, minute: 0))])), text)
    #expect(added.text == text + "\r\n[[alarm]]\r\ntime = \"08:00\"\r\n")
    let removed = try edit(.remove(id: "b"), text)
    #expect(removed.text == "# alarms\r\n[[alarm]]\r\ntime = \"06:45\"\r\nlabel = \"Work\"\r\n")
  }

  @Test func inlineTablesAreEditedInPlace() throws {
    let text = """
      alarm = [ {time = "06:45", label = "Work", days = "weekdays"},  # first
        { id = "b", time = "07:00", enabled = false } ]
      [settings]
      timezone = "UTC"
      """
    let edited = try edit(
      .edit(id: "work-0645", AlarmChanges(values: [.volume: .integer(10)], unset: [.label])), text)
    #expect(
      edited.text.hasPrefix(
        "alarm = [ {time = \"06:45\", days = \"weekdays\", id = \"work-0645\", volume = 10},  # first\n"
      ))
    let first = try edit(.edit(id: "b", AlarmChanges(unset: [.id])), text)
    #expect(first.text.contains("{ time = \"07:00\", enabled = false }"))
    let on = try edit(.enable(id: "b"), text)
    #expect(on.text.contains("{ id = \"b\", time = \"07:00\", enabled = true }"))
    let removed = try edit(.remove(id: "work-0645"), text)
    #expect(removed.text.hasPrefix("alarm = [ { id = \"b\""))
    let removedLast = try edit(.remove(id: "b"), text)
    #expect(
      removedLast.text.hasPrefix(
        "alarm = [ {time = \"06:45\", label = \"Work\", days = \"weekdays\"} ]\n"))
    let added = try edit(
      .add(AlarmChanges(values: [.time: .time(LocalTime(hour: 5, minute: 0))])), text)
    #expect(added.text.contains("enabled = false }, { time = \"05:00\" } ]"))
    #expect(added.config.alarms.count == 3)
    let only = try edit(.remove(id: "x"), "alarm = [{ id = \"x\", time = \"06:00\" }]\n")
    #expect(only.text == "alarm = []\n")
    let intoEmpty = try edit(
      .add(AlarmChanges(values: [.time: .time(LocalTime(hour: 5, minute: 0))])), only.text)
    #expect(intoEmpty.text == "alarm = [{ time = \"05:00\" }]\n")
  }

  @Test func anEditThatBreaksTheConfigIsRefused() throws {
    let changes = AlarmChanges(values: [.date: .date(LocalDate(year: 2030, month: 1, day: 1))])
    let error = try requireThrows(EditFailure.self) { try edit(.edit(id: "work-0645", changes)) }
    guard case .invalidResult(let result, _) = error.error else {
      Issue.record("wrong error \(error.error)")
      return
    }
    #expect(result.errors.contains { $0.message.contains("'date' cannot be combined with 'days'") })
  }

  @Test func unknownIDsAndTakenIDsAreRefused() throws {
    let error = try requireThrows(EditFailure.self) { try edit(.remove(id: "wekend")) }
    guard case .unknownAlarm(_, let near, let ids) = error.error else {
      Issue.record("wrong error")
      return
    }
    #expect(near == ["weekend"])
    #expect(ids == ["work-0645", "weekend", "nap-1330"])
    let taken = try requireThrows(EditFailure.self) {
      try edit(.edit(id: "nap-1330", AlarmChanges(values: [.id: .string("weekend")])))
    }
    guard case .refused(let reason) = taken.error else { return }
    #expect(reason.contains("'weekend' is already used"))
    let broken = try requireThrows(EditFailure.self) {
      try edit(.enable(id: "a"), "[[alarm]]\ntime = 25\n")
    }
    guard case .invalidConfig = broken.error else {
      Issue.record("wrong error")
      return
    }
  }

  @Test func otherDerivedIDsThatMoveAreReported() throws {
    let text = "[[alarm]]\ntime = \"06:00\"\n\n[[alarm]]\ntime = \"06:00\"\nvolume = 5\n"
    let r = try edit(.remove(id: "alarm-0600"), text)
    #expect(
      r.notes == ["the alarm that was 'alarm-0600-2' is now 'alarm-0600' (its id is derived)"])
  }

  @Test func valueTextFromTheCommandLine() throws {
    #expect(try AlarmValueText.days("Mon, wed,mon").get() == .strings(["mon", "wed"]))
    #expect(try AlarmValueText.days("friday").get() == .string("fri"))
    #expect(try AlarmValueText.days("weekdays").get() == .string("weekdays"))
    #expect(
      AlarmValueText.days("weekday").failureText?.contains("did you mean 'weekdays'?") == true)
    #expect(
      try AlarmValueText.time("06:45:30").get() == .time(LocalTime(hour: 6, minute: 45, second: 30))
    )
    #expect(AlarmValueText.time("6:45").failureText != nil)
    #expect(AlarmValueText.duration("0s", for: .snooze).failureText != nil)
    #expect(try AlarmValueText.duration("1.5s", for: .ramp).get() == .string("1.5s"))
    #expect(AlarmValueText.duration("1.5s", for: .ringFor).failureText != nil)
    #expect(AlarmValueText.volume("101").failureText != nil)
    #expect(AlarmValueText.id("Work").failureText != nil)
    #expect(AlarmValue.strings(["a\"b", "c\\"]).toml == "[\"a\\\"b\", \"c\\\\\"]")
    #expect(
      AlarmValue.skips([.day(LocalDate(year: 2027, month: 1, day: 2))]).toml == "[2027-01-02]")
    #expect(
      try AlarmValueText.skipEntry("2027-07-19..2027-07-30").get()
        == .range(
          DateRange(
            from: LocalDate(year: 2027, month: 7, day: 19),
            to: LocalDate(year: 2027, month: 7, day: 30))))
    #expect(
      try AlarmValueText.skipEntry("2027-07-19..2027-07-19").get()
        == .day(LocalDate(year: 2027, month: 7, day: 19)))
    for bad in ["2027-07-30..2027-07-19", "2027-02-30", "2027-07-19...2027-07-30", "soon"] {
      #expect(AlarmValueText.skipEntry(bad).failureText != nil, "\(bad)")
    }
    #expect(try AlarmValueText.pathList("none").get() == .strings([]))
    #expect(
      try AlarmValueText.pathList(" a.ics \n\nb c.ics\na.ics").get()
        == .strings(["a.ics", "b c.ics"]))
  }
}

extension Result {
  fileprivate var failureText: String? {
    if case .failure(let e) = self { return "\(e)" }
    return nil
  }
}
