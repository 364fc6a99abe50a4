/// What the device says, in English or Traditional Chinese: the sentences are written out
/// in words (numbers too), so the synthesizer reads them the same on every system.
public struct SpokenText: Sendable {
  public var locale: DisplayLocale
  private var zh: Bool { locale == .traditionalChinese }

  public init(_ locale: DisplayLocale) { self.locale = locale }

  /// The time of day: "six forty-five", "seven o'clock", "twelve oh five";
  /// "上午六點四十五分", "早上七點整" is not used: "上午七點整", "中午十二點零五分".
  public func clock(_ time: LocalTime) -> String {
    let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
    if zh {
      let part: String
      switch time.hour {
      case 0..<6: part = "凌晨"
      case 6..<12: part = "上午"
      case 12: part = "中午"
      case 13..<18: part = "下午"
      default: part = "晚上"
      }
      let hour = hour12 == 2 ? "兩" : Self.chineseNumber(hour12)
      let minutes: String
      switch time.minute {
      case 0: minutes = "整"
      case 1..<10: minutes = "零" + Self.chineseNumber(time.minute) + "分"
      default: minutes = Self.chineseNumber(time.minute) + "分"
      }
      return part + hour + "點" + minutes
    }
    let hour = Self.englishNumber(hour12)
    switch time.minute {
    case 0: return hour + " o'clock"
    case 1..<10: return hour + " oh " + Self.englishNumber(time.minute)
    default: return hour + " " + Self.englishNumber(time.minute)
    }
  }

  /// While an alarm rings: "It's six forty-five. Work." / "上午六點四十五分，Work。"
  public func announcement(time: LocalTime, label: String) -> String {
    zh ? "\(clock(time))，\(label)。" : "It's \(clock(time)). \(label)."
  }

  /// After the morning stop: the open reminders of today (and overdue ones), in list
  /// order: "Two reminders today: Take the bins out; Dentist at 10." /
  /// "今天有兩個提醒：倒垃圾；看牙醫。"; nil when there are none.
  public func todaysReminders(_ titles: [String]) -> String? {
    guard !titles.isEmpty else { return nil }
    let n = titles.count
    if zh {
      let count = n == 2 ? "兩" : Self.chineseNumber(n)
      return "今天有\(count)個提醒：" + titles.joined(separator: "；") + "。"
    }
    let count = n <= 20 ? Self.englishNumber(n).capitalizedFirst : String(n)
    return "\(count) reminder\(n == 1 ? "" : "s") today: " + titles.joined(separator: "; ") + "."
  }

  /// A reminder at its due time: "Reminder: Take the bins out." / "提醒：倒垃圾。"
  public func reminderDue(_ title: String) -> String {
    zh ? "提醒：\(title)。" : "Reminder: \(title)."
  }

  /// A press after a reminder was said marked it done: "Done: Take the bins out." /
  /// "已完成：倒垃圾。"
  public func reminderDone(_ title: String) -> String {
    zh ? "已完成：\(title)。" : "Done: \(title)."
  }

  /// A press while nothing rings: the time and the next alarm. `next` is the next firing's
  /// local time, label, and whether it is today, tomorrow or later (`days` from today).
  public func timeAndNext(
    now: LocalTime, next: (time: LocalTime, label: String, days: Int)?
  ) -> String {
    let first = zh ? "現在\(clock(now))。" : "It's \(clock(now))."
    guard let next else { return first + (zh ? "沒有設定鬧鐘。" : " No alarm is set.") }
    if zh {
      let day = next.days == 0 ? "今天" : next.days == 1 ? "明天" : "\(Self.chineseNumber(next.days))天後"
      return first + "下一個鬧鐘：\(day)\(clock(next.time))，\(next.label)。"
    }
    let day =
      next.days == 0
      ? "today" : next.days == 1 ? "tomorrow" : "in \(Self.englishNumber(next.days)) days"
    return first + " The next alarm is \(next.label), at \(clock(next.time)) \(day)."
  }

  /// `timeAndNext` for the instant `now` and the next firing at `next.at`, as wall times in
  /// `zone`: what `say-time` and a press of the service say alike.
  public func timeAndNext(
    at now: Instant, next: (at: Instant, label: String)?, zone: TimeZoneRules
  ) -> String {
    let local = zone.local(at: now)
    let coming = next.map { n in
      let at = zone.local(at: n.at)
      return (at.time, n.label, at.date.daysSinceEpoch - local.date.daysSinceEpoch)
    }
    return timeAndNext(now: local.time, next: coming)
  }

  /// 0...99 in Chinese numerals: 零, 七, 十, 十五, 二十, 四十五.
  static func chineseNumber(_ n: Int) -> String {
    let digits = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
    guard n >= 0 && n < 100 else { return String(n) }
    if n < 10 { return digits[n] }
    let tens = n / 10
    let ones = n % 10
    return (tens == 1 ? "" : digits[tens]) + "十" + (ones == 0 ? "" : digits[ones])
  }

  /// 0...99 in English words: zero, seven, twelve, forty-five.
  static func englishNumber(_ n: Int) -> String {
    let small = [
      "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
      "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
      "nineteen",
    ]
    let tens = [
      "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ]
    guard n >= 0 && n < 100 else { return String(n) }
    if n < 20 { return small[n] }
    return tens[n / 10] + (n % 10 == 0 ? "" : "-" + small[n % 10])
  }
}

extension String {
  fileprivate var capitalizedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
