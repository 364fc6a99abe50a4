import AlarmCore
import AlarmWebPage
import Testing

@Suite struct WebPageSafetyTests {
  static let hostile = "<script>alert(\"x\")</script>&'"
  static let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"

  @Test func everyValueIsEscaped() {
    let ctx = PageContext(language: WebLanguage(.english), csrf: "\"><script>")
    let row = AlarmRow(alarm: Samples.alarm("evil", 7, 0, label: Self.hostile))
    let session = SessionStatus(
      id: "evil", label: Self.hostile, state: .ringing, until: Self.hostile, snoozes: 0)
    let next = NextAlarm(
      id: "evil", label: Self.hostile, date: LocalDate(year: 2027, month: 1, day: 1),
      time: LocalTime(hour: 7, minute: 0), until: .seconds(60))
    var a = row.alarm
    a.sound = Self.hostile
    let pages = [
      WebPage.list(
        ListPage(
          alarms: [row], etag: Self.hostile, next: next, session: session,
          serviceProblem: Self.hostile, configErrors: [Self.hostile]), ctx),
      WebPage.edit(
        EditPage(
          id: "evil", form: AlarmForm(a), etag: Self.hostile, sounds: [Self.hostile],
          defaultSound: Self.hostile, errors: [Self.hostile]), ctx),
      WebPage.error(ErrorPage(status: 400, message: Self.hostile, back: Self.hostile), ctx),
    ]
    for page in pages {
      // The only script is the page's own.
      #expect(page.components(separatedBy: "<script>").count == 2)
      #expect(!page.contains("alert(\"x\")"))
      #expect(page.contains(Self.escaped))
      #expect(
        page.contains("name=\"csrf\" value=\"&quot;&gt;&lt;script&gt;\"")
          || !page.contains("name=\"csrf\""))
    }
  }

  @Test func idsArePercentEncodedInRoutes() {
    let row = AlarmRow(alarm: Samples.alarm("a b/../x", 7, 0))
    let page = WebPage.list(ListPage(alarms: [row], etag: "e"), Samples.context(.english))
    #expect(page.contains("href=\"/alarms/a%20b%2F..%2Fx\""))
    #expect(page.contains("action=\"/alarms/a%20b%2F..%2Fx/disable\""))
  }

  @Test func controlCharactersDoNotReachThePage() {
    let row = AlarmRow(alarm: Samples.alarm("c", 7, 0, label: "bell\u{7}\u{1B}[31m"))
    let page = WebPage.list(ListPage(alarms: [row], etag: "e"), Samples.context(.english))
    #expect(!page.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(page.contains("bell\u{FFFD}\u{FFFD}[31m"))
  }

  @Test func fiftyAlarmsStayUnderFiftyKilobytesWithNoExternalRequests() {
    let rows = (0..<50).map { i in
      AlarmRow(
        alarm: Samples.alarm(
          "alarm-\(i)", i % 24, i, i % 2 == 0 ? .weekdays : DaySet([.monday, .friday]),
          label: "起床上班 第 \(i) 個鬧鐘", enabled: i % 3 != 0),
        skippedDate: i % 5 == 0 ? LocalDate(year: 2026, month: 12, day: 7) : nil)
    }
    for locale in DisplayLocale.allCases {
      let page = WebPage.list(
        ListPage(
          alarms: rows, etag: "\"0123456789abcdef\"", next: Samples.next,
          session: Samples.ringing),
        PageContext(language: WebLanguage(locale), csrf: String(repeating: "x", count: 43)))
      #expect(page.utf8.count < 50_000, "\(page.utf8.count) bytes")
      for external in ["src=", "http:", "https:", "url(", "@import"] {
        #expect(!page.contains(external), "\(external)")
      }
    }
    #expect(Samples.edit(.english).utf8.count < 50_000)
  }
}
