import AlarmCore
import AlarmWebPage

/// Pages built from real-looking inputs, shared by the renderer tests.
enum Samples {
  static func alarm(
    _ id: String, _ hour: Int, _ minute: Int, _ days: DaySet = .never, label: String? = nil,
    enabled: Bool = true
  ) -> Alarm {
    Alarm(
      id: id, time: LocalTime(hour: hour, minute: minute), days: days, label: label,
      enabled: enabled)
  }

  static let rows: [AlarmRow] = [
    AlarmRow(alarm: alarm("weekend", 9, 0, .weekends, label: "Lie in")),
    AlarmRow(alarm: alarm("work", 6, 45, .weekdays, label: "Work")),
    AlarmRow(
      alarm: alarm("gym", 18, 30, DaySet([.monday, .wednesday]), label: "Gym"),
      skippedDate: LocalDate(year: 2026, month: 12, day: 7)),
    AlarmRow(alarm: alarm("nap", 13, 15, label: "Nap"), done: true),
    AlarmRow(alarm: alarm("bins", 6, 30, .daily, enabled: false)),
  ]

  static let next = NextAlarm(
    id: "work", label: "Work", date: LocalDate(year: 2026, month: 12, day: 7),
    time: LocalTime(hour: 6, minute: 45), until: .seconds(7 * 3600 + 32 * 60))

  static let ringing = SessionStatus(
    id: "work", label: "Work", state: .ringing, until: "2026-12-07T06:55:00+01:00", snoozes: 0)

  static func context(_ locale: DisplayLocale) -> PageContext {
    PageContext(language: WebLanguage(locale), csrf: "csrf-123")
  }

  static func list(_ locale: DisplayLocale, session: SessionStatus? = nil) -> String {
    WebPage.list(
      ListPage(alarms: rows, etag: "\"e1\"", next: next, session: session), context(locale))
  }

  static func edit(_ locale: DisplayLocale, id: String? = "work", errors: [String] = []) -> String {
    var a = alarm("work", 6, 45, .weekdays, label: "Work")
    a.sound = "birds.mp3"
    return WebPage.edit(
      EditPage(
        id: id, form: id == nil ? AlarmForm() : AlarmForm(a), etag: "\"e1\"",
        sounds: ["beep.wav", "birds.mp3", "radio/news.ogg"], defaultSound: "beep.wav",
        errors: errors), context(locale))
  }
}
