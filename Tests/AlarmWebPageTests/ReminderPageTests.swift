import AlarmCore
import AlarmWebPage
import Testing

/// The reminder screen as a browser gets it: escaped values, one form per action, the
/// first row's up and the last row's down disabled, done ones marked.
@Suite struct ReminderPageTests {
  static let today = LocalDate(year: 2026, month: 12, day: 5)
  static let list = [
    Reminder(
      id: "bins", title: WebPageSafetyTests.hostile, notes: WebPageSafetyTests.hostile + "\nmore",
      due: .time(LocalDate(year: 2026, month: 12, day: 6), LocalTime(hour: 7, minute: 30))),
    Reminder(id: "dentist", title: "Dentist", due: .day(LocalDate(year: 2026, month: 12, day: 1))),
    Reminder(id: "milk", title: "買牛奶", done: true),
  ]

  @Test func rowsEscapeEveryValueAndOfferEachAction() {
    let ctx = PageContext(language: WebLanguage(.english), csrf: "c")
    let page = WebPage.reminders(
      RemindersPage(reminders: Self.list, etag: "\"e\"", today: Self.today), ctx)
    #expect(page.components(separatedBy: "<script>").count == 2)
    #expect(page.contains(WebPageSafetyTests.escaped))
    #expect(!page.contains("more"))  // only the notes' first line
    #expect(page.contains("tomorrow 07:30"))
    #expect(page.contains("Tue 2026-12-01 (overdue)"))
    let forms = Form.all(page).map(\.action)
    for id in ["bins", "dentist"] {
      #expect(forms.contains("/reminders/\(id)/done"))
      #expect(forms.contains("/reminders/\(id)/up") && forms.contains("/reminders/\(id)/down"))
    }
    #expect(forms.contains("/reminders/milk/undone"))
    let edits = Form.all(page).filter { $0.action.hasPrefix("/reminders/") }
    #expect(edits.count == 9)
    #expect(edits.allSatisfy { $0.hidden["etag"] == "\"e\"" && $0.hidden["csrf"] == "c" })
    let up = Form.all(page).first { $0.action == "/reminders/bins/up" }?.html ?? ""
    let down = Form.all(page).first { $0.action == "/reminders/milk/down" }?.html ?? ""
    #expect(up.contains(" disabled") && down.contains(" disabled"))
    #expect(page.contains("<li id=\"reminder-milk\" class=\"done\">"))
    #expect(page.contains("aria-checked=\"true\""))
  }

  @Test func theFormShowsTheReminderAndChineseWords() {
    let ctx = PageContext(language: WebLanguage(.traditionalChinese), csrf: "c")
    let page = WebPage.reminderEdit(
      ReminderEditPage(id: "bins", form: ReminderForm(Self.list[0]), etag: "e"), ctx)
    #expect(page.contains("編輯提醒") && page.contains("截止日期") && page.contains("備註"))
    #expect(page.contains("name=\"due_date\" value=\"2026-12-06\""))
    #expect(page.contains("name=\"due_time\" step=\"60\" value=\"07:30\""))
    #expect(page.contains(">" + WebPageSafetyTests.escaped + "\nmore</textarea>"))
    let actions = Form.all(page).map(\.action).filter { $0.hasPrefix("/reminders") }
    #expect(actions == ["/reminders/bins", "/reminders/bins/photo", "/reminders/bins/delete"])
    #expect(page.contains(">加入照片</button>") && !page.contains("移除照片"))
    let withPhoto = WebPage.reminderEdit(
      ReminderEditPage(id: "bins", form: ReminderForm(Self.list[0]), etag: "e", hasPhoto: true),
      ctx)
    #expect(withPhoto.contains("<img class=\"photo big\" src=\"/reminders/bins/photo\""))
    #expect(
      Form.all(withPhoto).map(\.action).contains("/reminders/bins/photo/delete")
        && withPhoto.contains(">更換照片</button>"))
    let empty = WebPage.reminders(RemindersPage(reminders: [], etag: "e", today: Self.today), ctx)
    #expect(empty.contains("還沒有提醒事項。"))
    #expect(empty.contains("<a href=\"/reminders\" aria-current=\"page\">提醒</a>"))
  }
}
