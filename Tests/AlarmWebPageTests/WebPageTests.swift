import AlarmCore
import AlarmWebPage
import Testing

@Suite struct WebPageListTests {
  @Test func rowsAreSortedByTimeThenID() {
    var rows = Samples.rows
    rows.append(AlarmRow(alarm: Samples.alarm("aaa", 9, 0)))
    let page = WebPage.list(ListPage(alarms: rows, etag: "e"), Samples.context(.english))
    let order = Form.tags("li", in: page).compactMap { attribute("id", $0) }
    #expect(
      order == ["alarm-bins", "alarm-work", "alarm-aaa", "alarm-weekend", "alarm-nap", "alarm-gym"])
  }

  @Test func summariesAreTheCLIsInBothLanguages() {
    let en = Samples.list(.english)
    for word in ["Weekdays", "Weekends", "Every day", "Mon, Wed", "Once · done", "lang=\"en\""] {
      #expect(en.contains(word), "\(word)")
    }
    let zh = Samples.list(.traditionalChinese)
    for word in [
      "平日", "週末", "每天", "週一、週三", "一次 · 已完成", "鬧鐘", "<small>上午</small>06:45",
      "<small>下午</small>06:30", "下一個：週一 上午 06:45 Work（7 小時 32 分鐘後）", "lang=\"zh-Hant-TW\"",
    ] {
      #expect(zh.contains(word), "\(word)")
    }
    #expect(!zh.contains("Weekdays"))
  }

  @Test func eachSwitchIsAFormThatFlipsTheAlarm() {
    let forms = Form.all(Samples.list(.english))
    let actions = Set(forms.map(\.action))
    #expect(
      actions.isSuperset(of: ["/alarms/work/disable", "/alarms/bins/enable", "/alarms/nap/enable"]))
    // The skipped alarm offers unskip; a disabled or done one offers no skip.
    #expect(actions.contains("/alarms/gym/unskip") && !actions.contains("/alarms/gym/skip"))
    #expect(actions.contains("/alarms/work/skip"))
    #expect(!actions.contains("/alarms/bins/skip") && !actions.contains("/alarms/nap/skip"))
    let sw = forms.first { $0.action == "/alarms/work/disable" }!
    #expect(sw.hidden == ["csrf": "csrf-123", "etag": "\"e1\""])
    #expect(sw.html.contains("aria-labelledby=\"alarm-work-t\""))
    #expect(forms.first { $0.action == "/alarms/work/skip" }!.hidden == ["csrf": "csrf-123"])
    #expect(sw.html.contains("role=\"switch\" aria-checked=\"true\""))
    #expect(
      forms.first { $0.action == "/alarms/bins/enable" }!.html.contains("aria-checked=\"false\""))
  }

  @Test func everyPostFormCarriesTheCSRFToken() {
    let pages = [
      Samples.list(.english, session: Samples.ringing), Samples.edit(.english),
      Samples.edit(.traditionalChinese, id: nil),
    ]
    for page in pages {
      let forms = Form.all(page)
      #expect(!forms.isEmpty)
      for f in forms {
        #expect(f.html.hasPrefix("<form method=\"post\""), "\(f.action)")
        #expect(f.hidden["csrf"] == "csrf-123", "\(f.action)")
      }
    }
  }

  @Test func ringingPanelIsHiddenUntilSomethingRings() {
    let quiet = Samples.list(.english)
    #expect(
      quiet.contains("<section id=\"ring\"") && quiet.contains(" hidden><p id=\"ring-what\">"))
    let ringing = Samples.list(.english, session: Samples.ringing)
    #expect(!ringing.contains(" hidden><p id=\"ring-what\">"))
    #expect(
      ringing.contains("<p id=\"ring-what\">Work</p><p id=\"ring-when\">Ringing until 06:55</p>"))
    let actions = Form.all(ringing).map(\.action)
    #expect(actions.contains("/snooze") && actions.contains("/stop"))
    var s = Samples.ringing
    s.state = .snoozed
    s.until = "2026-12-07T07:04:00+01:00"
    let snoozed = Samples.list(.traditionalChinese, session: s)
    #expect(snoozed.contains("class=\"snoozed\""))
    #expect(snoozed.contains("<p id=\"ring-when\">稍後提醒至 07:04</p>"))
  }

  @Test func configErrorsAndAServiceDownAreShown() {
    let page = WebPage.list(
      ListPage(
        alarms: [], etag: "e", serviceProblem: "no service at /run/alarmclock/control",
        configErrors: ["/etc/alarmclock/alarms.toml:4:8: invalid time '25:00'"]),
      Samples.context(.english))
    #expect(page.contains("<li>/etc/alarmclock/alarms.toml:4:8: invalid time &#39;25:00&#39;</li>"))
    #expect(page.contains("The config file has errors"))
    #expect(
      page.contains(
        "The alarm service did not answer:</strong> no service at /run/alarmclock/control"))
    #expect(page.contains("No alarms yet.") && page.contains("No alarm is set."))
  }
}
