/// The words the reminder list is shown with, in English or Traditional Chinese.
public struct ReminderText: Sendable {
  public var locale: DisplayLocale
  private var alarm: AlarmText { AlarmText(locale) }
  private var zh: Bool { locale == .traditionalChinese }

  public init(_ locale: DisplayLocale) { self.locale = locale }

  /// The tick of a list line: `[x]` done, `[ ]` open.
  public func tick(_ done: Bool) -> String { done ? "[x]" : "[ ]" }

  /// When a reminder is due, seen from `today`: "today", "tomorrow 07:30",
  /// "Mon 2026-12-07 07:30", "Tue 2026-12-01 (overdue)"; "今天", "明天 上午 07:30",
  /// "2026-12-07（週一） 上午 07:30", "2026-12-01（週二）（已逾期）".
  public func due(_ due: ReminderDue, today: LocalDate, done: Bool) -> String {
    var day: String
    switch due.date.daysSinceEpoch - today.daysSinceEpoch {
    case 0: day = zh ? "今天" : "today"
    case 1: day = zh ? "明天" : "tomorrow"
    case -1: day = zh ? "昨天" : "yesterday"
    default: day = alarm.date(due.date)
    }
    if let time = due.time { day += " " + alarm.time(time) }
    if !done && due.date < today { day += zh ? "（已逾期）" : " (overdue)" }
    return day
  }

  /// One line of `remind list`: position, tick, title, when it is due, id:
  /// "2  [ ]  Dentist at 10  due tomorrow  [dentist]"; "2  [ ]  看牙醫  到期：明天  [dentist]".
  public func line(_ r: Reminder, position: Int, today: LocalDate) -> String {
    var parts = ["\(position)", tick(r.done), r.title]
    if let due = r.due {
      parts.append((zh ? "到期：" : "due ") + self.due(due, today: today, done: r.done))
    }
    parts.append("[\(r.id)]")
    return parts.joined(separator: "  ")
  }

  /// What `remind list` prints for an empty list (or one with nothing open).
  public func empty(all: Bool) -> String {
    if all { return zh ? "提醒清單是空的" : "the reminder list is empty" }
    return zh ? "沒有未完成的提醒" : "nothing to do: no open reminders"
  }
}
