import AlarmCore
import Testing

/// The sentences the voice says, in both languages, and which reminders it reads when.
@Suite struct SpokenTextTests {
  let en = SpokenText(.english)
  let zh = SpokenText(.traditionalChinese)

  @Test func clockTimesInWords() {
    let cases: [(Int, Int, String, String)] = [
      (6, 45, "six forty-five", "上午六點四十五分"),
      (7, 0, "seven o'clock", "上午七點整"),
      (12, 5, "twelve oh five", "中午十二點零五分"),
      (0, 30, "twelve thirty", "凌晨十二點三十分"),
      (14, 10, "two ten", "下午兩點十分"),
      (23, 59, "eleven fifty-nine", "晚上十一點五十九分"),
      (2, 20, "two twenty", "凌晨兩點二十分"),
      (18, 1, "six oh one", "晚上六點零一分"),
    ]
    for (h, m, english, chinese) in cases {
      let t = LocalTime(hour: h, minute: m)
      #expect(en.clock(t) == english)
      #expect(zh.clock(t) == chinese)
    }
  }

  @Test func theRingsAnnouncementAndTheMorningsReminders() {
    let t = LocalTime(hour: 6, minute: 45)
    #expect(en.announcement(time: t, label: "Work") == "It's six forty-five. Work.")
    #expect(zh.announcement(time: t, label: "Work") == "上午六點四十五分，Work。")
    #expect(
      en.todaysReminders(["Take the bins out", "Dentist at 10"])
        == "Two reminders today: Take the bins out; Dentist at 10.")
    #expect(en.todaysReminders(["Bins"]) == "One reminder today: Bins.")
    #expect(zh.todaysReminders(["倒垃圾", "看牙醫"]) == "今天有兩個提醒：倒垃圾；看牙醫。")
    #expect(zh.todaysReminders(["倒垃圾"]) == "今天有一個提醒：倒垃圾。")
    #expect(en.todaysReminders([]) == nil && zh.todaysReminders([]) == nil)
    #expect(en.reminderDue("Bins") == "Reminder: Bins.")
    #expect(zh.reminderDue("倒垃圾") == "提醒：倒垃圾。")
  }

  @Test func thePressWhileNothingRings() {
    let now = LocalTime(hour: 23, minute: 10)
    let next = (time: LocalTime(hour: 6, minute: 45), label: "Work", days: 1)
    #expect(
      en.timeAndNext(now: now, next: next)
        == "It's eleven ten. The next alarm is Work, at six forty-five tomorrow.")
    #expect(zh.timeAndNext(now: now, next: next) == "現在晚上十一點十分。下一個鬧鐘：明天上午六點四十五分，Work。")
    #expect(en.timeAndNext(now: now, next: nil) == "It's eleven ten. No alarm is set.")
    #expect(zh.timeAndNext(now: now, next: nil) == "現在晚上十一點十分。沒有設定鬧鐘。")
    let later = (time: LocalTime(hour: 9, minute: 0), label: "Lie in", days: 3)
    #expect(en.timeAndNext(now: now, next: later).hasSuffix("at nine o'clock in three days."))
    #expect(zh.timeAndNext(now: now, next: later).hasSuffix("三天後上午九點整，Lie in。"))
  }

  static let list = ReminderList(reminders: [
    Reminder(id: "old", title: "Overdue", due: .day(LocalDate(year: 2027, month: 3, day: 26))),
    Reminder(
      id: "done", title: "Done", due: .day(LocalDate(year: 2027, month: 3, day: 28)), done: true),
    Reminder(
      id: "gap", title: "In the gap",
      due: .time(LocalDate(year: 2027, month: 3, day: 28), LocalTime(hour: 2, minute: 30))),
    Reminder(id: "undated", title: "Some day"),
    Reminder(id: "later", title: "Tomorrow", due: .day(LocalDate(year: 2027, month: 3, day: 29))),
    Reminder(
      id: "twice", title: "Twice",
      due: .time(LocalDate(year: 2027, month: 10, day: 31), LocalTime(hour: 2, minute: 30))),
  ])

  @Test func todaysRemindersAreTheOpenOnesDueByToday() {
    let today = ReminderAgenda.today(Self.list, today: LocalDate(year: 2027, month: 3, day: 28))
    #expect(today.map(\.id) == ["old", "gap"])
  }

  @Test func dueTimesFollowTheZoneAcrossDSTNights() throws {
    let berlin = try TimeZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")
    // Spring forward: 02:30 does not exist on 2027-03-28; it is due at 03:30 CEST (01:30 UTC).
    let before = try #require(ISO8601Text.parse("2027-03-28T01:59:00+01:00", in: berlin))
    let gap = try #require(ReminderAgenda.nextDue(Self.list, after: before, zone: berlin))
    #expect(gap.reminder.id == "gap")
    #expect(ISO8601Text.format(gap.at, in: berlin) == "2027-03-28T03:30:00+02:00")
    // Once past, the next is the fall-back night's 02:30, at its first occurrence (CEST).
    let twice = try #require(ReminderAgenda.nextDue(Self.list, after: gap.at, zone: berlin))
    #expect(twice.reminder.id == "twice")
    #expect(ISO8601Text.format(twice.at, in: berlin) == "2027-10-31T02:30:00+02:00")
    #expect(ReminderAgenda.nextDue(Self.list, after: twice.at, zone: berlin) == nil)
  }
}
