/// The words `list` and `next` show, in English or Traditional Chinese (after the
/// seeds: 每天 / 平日 / 週末 / 永不, 鬧鐘, 上午/下午 hh:mm).
public struct AlarmText: Hashable, Sendable {
  public var locale: DisplayLocale

  public init(_ locale: DisplayLocale) { self.locale = locale }

  var zh: Bool { locale == .traditionalChinese }

  /// The default label: "Alarm" / "鬧鐘".
  public var defaultLabel: String { zh ? "鬧鐘" : "Alarm" }

  /// The alarm's label, or the default label when it has none.
  public func label(_ alarm: Alarm) -> String { alarm.label ?? defaultLabel }

  /// "on" / "off"; "開啟" / "關閉".
  /// A one-off that has rung: done / 已完成.
  public var done: String { zh ? "已完成" : "done" }

  public func onOff(_ enabled: Bool) -> String {
    zh ? (enabled ? "開啟" : "關閉") : (enabled ? "on" : "off")
  }

  /// The repeat summary: Every day / Weekdays / Weekends / Never / "Mon, Wed";
  /// 每天 / 平日 / 週末 / 永不 / "週一、週三". English lists days Monday first; Chinese
  /// lists them Sunday first, as the seeds' app (and Taiwanese calendars) do.
  public func repeatSummary(_ days: DaySet) -> String {
    switch days {
    case .daily: return zh ? "每天" : "Every day"
    case .weekdays: return zh ? "平日" : "Weekdays"
    case .weekends: return zh ? "週末" : "Weekends"
    case .never: return zh ? "永不" : "Never"
    default:
      guard zh else { return days.days.map(weekday).joined(separator: ", ") }
      let sundayFirst = days.days.sorted { ($0.rawValue % 7) < ($1.rawValue % 7) }
      return sundayFirst.map(weekday).joined(separator: "、")
    }
  }

  /// What `list` shows for when an alarm rings: the repeat summary for a repeating
  /// alarm; "Once" / "一次" for a one-off; "Once, Sun 2027-03-28" /
  /// "一次，2027-03-28（週日）" for a one-off on a date.
  public func summary(_ alarm: Alarm) -> String {
    guard alarm.isOneOff else { return repeatSummary(alarm.days) }
    guard let date = alarm.date else { return zh ? "一次" : "Once" }
    return zh ? "一次，\(self.date(date))" : "Once, \(self.date(date))"
  }

  /// Short weekday name: Mon ... Sun; 週一 ... 週日.
  public func weekday(_ day: Weekday) -> String {
    let names =
      zh
      ? ["週一", "週二", "週三", "週四", "週五", "週六", "週日"]
      : ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    return names[day.rawValue - 1]
  }

  /// A date with its weekday: "Sun 2027-03-28"; "2027-03-28（週日）".
  public func date(_ date: LocalDate) -> String {
    zh ? "\(date)（\(weekday(date.weekday))）" : "\(weekday(date.weekday)) \(date)"
  }

  /// A wall time: "06:45" (24-hour); "上午 06:45" / "下午 01:30" (12-hour with
  /// 上午 before noon, so 00:30 is 上午 12:30 and 12:15 is 下午 12:15). Seconds are
  /// shown only when not zero.
  public func time(_ time: LocalTime) -> String {
    guard zh else { return time.description }
    let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
    let clock = LocalTime(hour: hour12, minute: time.minute, second: time.second)
    return (time.hour < 12 ? "上午 " : "下午 ") + clock.description
  }

  /// How long until something: "in 7 h 32 min", "in 2 d 1 h", "in 45 s", "now";
  /// "7 小時 32 分鐘後", "2 天 1 小時後", "45 秒後", "現在". From one minute on,
  /// seconds are dropped (rounded down) and zero parts left out.
  public func relative(_ duration: Duration) -> String {
    let total = duration.components.seconds
    if total <= 0 { return zh ? "現在" : "now" }
    if total < 60 { return zh ? "\(total) 秒後" : "in \(total) s" }
    let (d, h, m) = (total / 86400, total % 86400 / 3600, total % 3600 / 60)
    var parts: [String] = []
    if d > 0 { parts.append(zh ? "\(d) 天" : "\(d) d") }
    if h > 0 { parts.append(zh ? "\(h) 小時" : "\(h) h") }
    if m > 0 { parts.append(zh ? "\(m) 分鐘" : "\(m) min") }
    let body = parts.joined(separator: " ")
    return zh ? body + "後" : "in " + body
  }

  /// One upcoming firing as `next` prints it: "Mon 06:45 Work (in 7 h 32 min)";
  /// "週一 上午 06:45 Work（7 小時 32 分鐘後）".
  public func firing(date: LocalDate, time: LocalTime, label: String, until: Duration) -> String {
    let when = "\(weekday(date.weekday)) \(self.time(time)) \(label)"
    return zh ? "\(when)（\(relative(until))）" : "\(when) (\(relative(until)))"
  }
}
