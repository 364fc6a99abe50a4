import AlarmCore
import AlarmWebPage
import Testing

@Suite struct WebPageEditTests {
  @Test func editFormPostsTheDocumentedFields() throws {
    let page = Samples.edit(.english)
    let forms = Form.all(page)
    let main = try #require(forms.first { $0.action == "/alarms/work" })
    #expect(main.hidden == ["csrf": "csrf-123", "etag": "\"e1\""])
    let inputs = main.tags("input")
    let time = try #require(inputs.first { attribute("name", $0) == "time" })
    #expect(attribute("type", time) == "time" && attribute("value", time) == "06:45")
    let days = inputs.filter { attribute("name", $0) == "days" }
    #expect(
      days.compactMap { attribute("value", $0) } == [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
      ])
    #expect(
      days.filter { $0.hasSuffix(" checked") }.compactMap { attribute("value", $0) }
        == ["mon", "tue", "wed", "thu", "fri"])
    #expect(
      inputs.contains { attribute("name", $0) == "label" && attribute("value", $0) == "Work" })
    #expect(inputs.contains { attribute("name", $0) == "volume" && attribute("value", $0) == "80" })
    for box in ["snooze", "enabled"] {
      #expect(
        inputs.contains {
          attribute("name", $0) == box && attribute("value", $0) == "on" && $0.hasSuffix("checked")
        })
    }
    let options = Form.options(of: "sound", in: main.html)
    #expect(
      options.map { attribute("value", $0) } == ["", "beep.wav", "birds.mp3", "radio/news.ogg"])
    // The escalation's sound offers the same list, "the same sound" first.
    #expect(
      Form.options(of: "escalate_sound", in: main.html).map { attribute("value", $0) }
        == ["", "beep.wav", "birds.mp3", "radio/news.ogg"])
    #expect(
      options.filter { $0.hasSuffix("selected") }.map { attribute("value", $0) } == ["birds.mp3"])
    #expect(main.html.contains(">Default (beep.wav)</option>"))
    // Announcing is three-way: the default's choice (off here), on, off.
    let announce = Form.options(of: "announce", in: main.html)
    #expect(announce.map { attribute("value", $0) } == ["", "on", "off"])
    #expect(announce.first?.hasSuffix("selected") == true)
    #expect(main.html.contains(">Default (off)</option>"))
    // Delete and the device test are their own forms.
    #expect(forms.contains { $0.action == "/alarms/work/delete" && $0.hidden["etag"] == "\"e1\"" })
    #expect(forms.contains { $0.action == "/alarms/work/ring" })
  }

  /// "More settings": the inherited ones empty with `[defaults]` as placeholders and the
  /// section closed; an alarm's own value shown, and the section open.
  @Test func moreSettingsShowTheDefaultsAsPlaceholders() throws {
    let page = Samples.edit(.english)
    let main = try #require(Form.all(page).first { $0.action == "/alarms/work" })
    let inputs = main.tags("input")
    for (name, placeholder) in [
      ("snooze_length", "9m"), ("ring_for", "10m"), ("max_snoozes", "no limit"),
    ] {
      let input = try #require(inputs.first { attribute("name", $0) == name }, "\(name)")
      #expect(attribute("value", input) == "" && attribute("placeholder", input) == placeholder)
    }
    #expect(main.html.contains("<details class=\"card\"><summary>More settings</summary>"))
    var alarm = Alarm(id: "x", time: LocalTime(hour: 6, minute: 0, second: 0))
    alarm.ringFor = .seconds(900)
    let form = AlarmForm(alarm)
    #expect(form[.ringFor] == "15m" && form[.snooze].isEmpty && form[.maxSnoozes].isEmpty)
    let html = WebPage.edit(
      EditPage(id: "x", form: form, etag: "e", sounds: []), Samples.context(.english))
    #expect(html.contains("<details class=\"card\" open>"))
    #expect(html.contains("name=\"ring_for\" maxlength=\"20\" value=\"15m\""))
  }

  /// Every key a file can set has its field on the page: the first card's own, the rest
  /// under "More settings" named by `formName`, each once.
  @Test func everyKeyIsOnTheForm() throws {
    let page = Samples.edit(.english)
    let main = try #require(Form.all(page).first { $0.action == "/alarms/work" })
    let names =
      (main.tags("input") + main.tags("select") + main.tags("textarea")).compactMap {
        attribute("name", $0)
      }
    for key in AlarmKey.allCases {
      let name = key.formPlace == .main ? key.rawValue : key.formName
      #expect(names.contains(name), "\(key)")
      if key != .days { #expect(names.filter { $0 == name }.count == 1, "\(key)") }
    }
    #expect(names.contains("snooze") && names.contains("snooze_length"))
    #expect(main.html.contains("placeholder=\"2027-12-24\n2027-07-19..2027-07-30\""))
    // The work alarm keeps its id in the field (changing it renames the alarm).
    #expect(
      main.tags("input").contains {
        attribute("name", $0) == "id" && attribute("value", $0) == "work"
      })
  }

  /// An alarm's own days off and calendars fill their lists, one per line, and open the
  /// section; `[defaults]`' calendars are the placeholder.
  @Test func skipListsShowOnePerLine() throws {
    var alarm = Alarm(id: "x", time: LocalTime(hour: 6, minute: 0, second: 0))
    alarm.skip = [LocalDate(year: 2027, month: 12, day: 24)]
    alarm.skipRanges = [
      DateRange(
        from: LocalDate(year: 2027, month: 7, day: 19), to: LocalDate(year: 2027, month: 7, day: 30)
      )
    ]
    var defaults = AlarmDefaults()
    defaults.skipCalendars = ["/etc/alarmclock/holidays.ics"]
    alarm.skipCalendars = []
    let form = AlarmForm(alarm, defaults: defaults)
    #expect(form[.skip] == "2027-07-19..2027-07-30\n2027-12-24" && form[.skipCalendars] == "none")
    let html = WebPage.edit(
      EditPage(id: "x", form: form, etag: "e", sounds: [], defaults: defaults),
      Samples.context(.english))
    #expect(html.contains("<details class=\"card\" open>"))
    #expect(html.contains(">2027-07-19..2027-07-30\n2027-12-24</textarea>"))
    #expect(html.contains("placeholder=\"/etc/alarmclock/holidays.ics\">none</textarea>"))
  }

  @Test func addFormPostsToTheCollectionWithoutDeleteOrRing() {
    let page = Samples.edit(.traditionalChinese, id: nil)
    let actions = Set(Form.all(page).map(\.action))
    #expect(actions == ["/alarms", "/snooze", "/stop"])
    #expect(page.contains("加入鬧鐘") && page.contains("placeholder=\"鬧鐘\""))
    // Chinese weeks start on Sunday, as the phone app's.
    let days = Form.tags("input", in: page).filter { attribute("name", $0) == "days" }
    #expect(days.first.flatMap { attribute("value", $0) } == "sun")
    #expect(!days.contains { $0.hasSuffix("checked") })
  }

  @Test func aSoundOutsideTheListStaysSelected() throws {
    var a = Samples.alarm("x", 7, 0, .daily)
    a.sound = "/home/pi/song.mp3"
    let page = WebPage.edit(
      EditPage(id: "x", form: AlarmForm(a), etag: "e", sounds: ["beep.wav"]),
      Samples.context(.english))
    let options = Form.options(of: "sound", in: page)
    #expect(options.map { attribute("value", $0) } == ["", "/home/pi/song.mp3", "beep.wav"])
    #expect(options[1].hasSuffix("selected"))
    #expect(page.contains(">Default</option>"))
  }

  @Test func secondsAreKeptWithAStepOfOneSecond() {
    var a = Samples.alarm("x", 7, 0)
    a.time = LocalTime(hour: 7, minute: 0, second: 30)
    let page = WebPage.edit(
      EditPage(id: "x", form: AlarmForm(a), etag: "e", sounds: []), Samples.context(.english))
    #expect(page.contains("value=\"07:00:30\" step=\"1\""))
  }

  @Test func refusedPostShowsTheErrorsAboveTheForm() {
    let page = Samples.edit(.english, errors: ["time: invalid time '7:7'; write HH:MM"])
    #expect(
      page.contains(
        "role=\"alert\" id=\"errors\"><ul><li>time: invalid time &#39;7:7&#39;; write HH:MM</li>"))
  }

  @Test func loginAndErrorPages() {
    let login = WebPage.login(
      LoginPage(failed: true), PageContext(language: WebLanguage(.english), csrf: ""))
    let form = Form.all(login)
    #expect(form.map(\.action) == ["/login"])
    #expect(form[0].hidden.isEmpty)
    #expect(
      form[0].tags("input").contains {
        attribute("name", $0) == "token" && attribute("type", $0) == "password"
      })
    #expect(login.contains("That token is not right."))
    #expect(!WebPage.login(LoginPage(), Samples.context(.english)).contains("not right"))
    let conflict = WebPage.error(
      ErrorPage(status: 409, message: "alarms.toml changed on disk"),
      Samples.context(.traditionalChinese))
    #expect(conflict.contains("<h1>409</h1>") && conflict.contains("鬧鐘已在別處被修改"))
    #expect(conflict.contains("alarms.toml changed on disk") && conflict.contains("href=\"/\""))
    #expect(!conflict.contains("id=\"ring\""))
  }
}
