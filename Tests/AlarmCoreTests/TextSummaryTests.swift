import AlarmCore
import Testing

@Suite struct TextSummaryTests {
  let en = AlarmText(.english)
  let zh = AlarmText(.traditionalChinese)

  @Test func localeFollowsPOSIXPrecedence() {
    #expect(DisplayLocale(environment: [:]) == .english)
    #expect(DisplayLocale(environment: ["LANG": "zh_TW.UTF-8"]) == .traditionalChinese)
    #expect(
      DisplayLocale(environment: ["LANG": "zh_TW.UTF-8", "LC_MESSAGES": "en_US.UTF-8"])
        == .english)
    #expect(
      DisplayLocale(environment: ["LC_ALL": "zh_TW", "LC_MESSAGES": "en_US.UTF-8"])
        == .traditionalChinese)
    // An empty variable does not count: the next one decides.
    #expect(
      DisplayLocale(environment: ["LC_ALL": "", "LANG": "zh_TW.UTF-8"]) == .traditionalChinese)
    #expect(DisplayLocale(environment: ["LC_ALL": "C", "LANG": "zh_TW.UTF-8"]) == .english)
  }

  @Test func localeNames() {
    for name in ["zh_TW", "zh_TW.UTF-8", "zh_Hant", "zh-Hant-TW", "zh_HK.UTF-8", "zh_TW@euro"] {
      #expect(DisplayLocale(localeName: name) == .traditionalChinese, "\(name)")
    }
    for name in ["en_US.UTF-8", "C", "POSIX", "zh_CN.UTF-8", "zh_Hans", "de_DE", "", "zh"] {
      #expect(DisplayLocale(localeName: name) == .english, "\(name)")
    }
  }

  @Test func repeatSummaries() {
    #expect(en.repeatSummary(.daily) == "Every day")
    #expect(en.repeatSummary(.weekdays) == "Weekdays")
    #expect(en.repeatSummary(.weekends) == "Weekends")
    #expect(en.repeatSummary(.never) == "Never")
    #expect(en.repeatSummary(DaySet([.wednesday, .monday])) == "Mon, Wed")
    #expect(en.repeatSummary(DaySet([.sunday, .monday])) == "Mon, Sun")
    #expect(zh.repeatSummary(.daily) == "每天")
    #expect(zh.repeatSummary(.weekdays) == "平日")
    #expect(zh.repeatSummary(.weekends) == "週末")
    #expect(zh.repeatSummary(.never) == "永不")
    #expect(zh.repeatSummary(DaySet([.wednesday, .monday])) == "週一、週三")
    // Sunday first, as in the seeds' app.
    #expect(zh.repeatSummary(DaySet([.sunday, .monday, .saturday])) == "週日、週一、週六")
    // Six days is a list, not "every day".
    #expect(
      en.repeatSummary(DaySet([.monday, .tuesday, .wednesday, .thursday, .friday, .saturday]))
        == "Mon, Tue, Wed, Thu, Fri, Sat")
  }

  @Test func labelsAndOnOff() {
    let plain = Alarm(id: "a", time: LocalTime(hour: 6, minute: 45))
    var work = plain
    work.label = "Work"
    #expect(en.label(plain) == "Alarm")
    #expect(zh.label(plain) == "鬧鐘")
    #expect(zh.label(work) == "Work")
    #expect(en.onOff(true) == "on" && en.onOff(false) == "off")
    #expect(zh.onOff(true) == "開啟" && zh.onOff(false) == "關閉")
  }

  @Test func times() {
    #expect(en.time(LocalTime(hour: 6, minute: 45)) == "06:45")
    #expect(en.time(LocalTime(hour: 13, minute: 30, second: 5)) == "13:30:05")
    #expect(zh.time(LocalTime(hour: 6, minute: 45)) == "上午 06:45")
    #expect(zh.time(LocalTime(hour: 13, minute: 30)) == "下午 01:30")
    #expect(zh.time(LocalTime(hour: 0, minute: 30)) == "上午 12:30")
    #expect(zh.time(LocalTime(hour: 12, minute: 15)) == "下午 12:15")
    #expect(zh.time(LocalTime(hour: 23, minute: 59, second: 59)) == "下午 11:59:59")
    #expect(zh.time(LocalTime(hour: 11, minute: 59)) == "上午 11:59")
  }

  @Test func weekdaysAndDates() {
    #expect(Weekday.allCases.map(en.weekday) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
    #expect(
      Weekday.allCases.map(zh.weekday) == ["週一", "週二", "週三", "週四", "週五", "週六", "週日"])
    let day = LocalDate(year: 2027, month: 3, day: 28)
    #expect(en.date(day) == "Sun 2027-03-28")
    #expect(zh.date(day) == "2027-03-28（週日）")
  }

  @Test func oneOffSummaries() {
    var alarm = Alarm(id: "a", time: LocalTime(hour: 6, minute: 45))
    #expect(en.summary(alarm) == "Once")
    #expect(zh.summary(alarm) == "一次")
    alarm.date = LocalDate(year: 2027, month: 3, day: 28)
    #expect(en.summary(alarm) == "Once, Sun 2027-03-28")
    #expect(zh.summary(alarm) == "一次，2027-03-28（週日）")
    alarm.date = nil
    alarm.days = .weekdays
    #expect(en.summary(alarm) == "Weekdays")
    #expect(zh.summary(alarm) == "平日")
  }

  @Test func relativeDurations() {
    #expect(en.relative(.seconds(7 * 3600 + 32 * 60 + 59)) == "in 7 h 32 min")
    #expect(zh.relative(.seconds(7 * 3600 + 32 * 60)) == "7 小時 32 分鐘後")
    #expect(en.relative(.seconds(45)) == "in 45 s")
    #expect(zh.relative(.seconds(45)) == "45 秒後")
    #expect(en.relative(.seconds(60)) == "in 1 min")
    #expect(en.relative(.seconds(3600)) == "in 1 h")
    #expect(en.relative(.seconds(2 * 86400 + 3600 + 30)) == "in 2 d 1 h")
    #expect(zh.relative(.seconds(2 * 86400 + 5 * 60)) == "2 天 5 分鐘後")
    #expect(en.relative(.zero) == "now")
    #expect(zh.relative(.seconds(-5)) == "現在")
    #expect(en.relative(.milliseconds(500)) == "now")
  }

  @Test func firingLines() {
    let monday = LocalDate(year: 2027, month: 3, day: 29)
    let until = Duration.seconds(7 * 3600 + 32 * 60)
    #expect(
      en.firing(date: monday, time: LocalTime(hour: 6, minute: 45), label: "Work", until: until)
        == "Mon 06:45 Work (in 7 h 32 min)")
    #expect(
      zh.firing(date: monday, time: LocalTime(hour: 6, minute: 45), label: "鬧鐘", until: until)
        == "週一 上午 06:45 鬧鐘（7 小時 32 分鐘後）")
  }
}
