/// RRULE expansion over a window. Period by period (day, week, month, year),
/// each period's candidates sorted, BYSETPOS applied, then UNTIL/COUNT. Without
/// COUNT the walk starts at the period before the window, so an endless rule
/// costs only the window; the walk is also capped.
extension ICalendarRule {
  /// At most this many periods are walked for one expansion. Only a COUNT rule
  /// walks from DTSTART; 50 000 periods are 137 years of a daily rule, so a
  /// real calendar never reaches the cap, and a damaged one (DTSTART in the
  /// year 0) stays cheap.
  static let periodCap = 50_000

  /// The instance start dates of this rule for an event starting on `start`,
  /// ascending, each in `earliest...last` (the event's own start is included
  /// only when the rule generates it).
  func starts(from start: LocalDate, earliest: LocalDate, through last: LocalDate) -> [LocalDate] {
    guard start <= last else { return [] }
    var result: [LocalDate] = []
    var emitted = 0
    var k = count == nil ? firstPeriod(from: start, to: earliest) : 0
    let stop = until.map { min($0, last) } ?? last
    for _ in 0..<Self.periodCap {
      guard let (begin, dates) = period(k, start: start), begin <= stop else { break }
      for date in dates where date >= start {
        if date > stop { return result }
        emitted += 1
        if date >= earliest { result.append(date) }
        if let count, emitted >= count { return result }
      }
      k += 1
    }
    return result
  }

  /// The first period worth walking for a window starting at `earliest`.
  private func firstPeriod(from start: LocalDate, to earliest: LocalDate) -> Int {
    guard earliest > start else { return 0 }
    let periods: Int
    switch frequency {
    case .daily: periods = (earliest.daysSinceEpoch - start.daysSinceEpoch) / interval
    case .weekly: periods = (earliest.daysSinceEpoch - start.daysSinceEpoch) / 7 / interval
    case .monthly:
      periods = ((earliest.year - start.year) * 12 + earliest.month - start.month) / interval
    case .yearly: periods = (earliest.year - start.year) / interval
    }
    return max(0, periods - 1)
  }

  /// Period `k`: its first day and its candidate dates, sorted; nil past year 9999.
  private func period(_ k: Int, start: LocalDate) -> (LocalDate, [LocalDate])? {
    var dates: [LocalDate]
    let begin: LocalDate
    switch frequency {
    case .daily:
      begin = start.adding(days: k * interval)
      dates = matchesFilters(begin) ? [begin] : []
    case .weekly:
      let back = (start.weekday.rawValue - weekStart.rawValue + 7) % 7
      begin = start.adding(days: -back + 7 * k * interval)
      let days = byDay.isEmpty ? [start.weekday] : byDay.map(\.weekday)
      dates = days.map { begin.adding(days: ($0.rawValue - weekStart.rawValue + 7) % 7) }
      dates = dates.filter { byMonth.isEmpty || byMonth.contains($0.month) }
    case .monthly:
      let index = start.year * 12 + start.month - 1 + k * interval
      begin = LocalDate(year: index / 12, month: index % 12 + 1, day: 1)
      let monthOK = byMonth.isEmpty || byMonth.contains(begin.month)
      dates = monthOK ? daysInMonth(begin.year, begin.month, defaultDay: start.day) : []
    case .yearly:
      begin = LocalDate(year: start.year + k * interval, month: 1, day: 1)
      dates = daysInYear(begin.year, start: start)
    }
    guard begin.year <= 9999 else { return nil }
    dates = Array(Set(dates)).sorted()
    if !bySetPos.isEmpty {
      let n = dates.count
      let picked = bySetPos.compactMap { p -> LocalDate? in
        let i = p > 0 ? p - 1 : n + p
        return i >= 0 && i < n ? dates[i] : nil
      }
      dates = Array(Set(picked)).sorted()
    }
    return (begin, dates)
  }

  private func matchesFilters(_ date: LocalDate) -> Bool {
    if !byMonth.isEmpty && !byMonth.contains(date.month) { return false }
    if !byMonthDay.isEmpty {
      let length = LocalDate.daysIn(month: date.month, year: date.year)
      if !byMonthDay.contains(where: { $0 == date.day || length + 1 + $0 == date.day }) {
        return false
      }
    }
    return byDay.isEmpty || byDay.contains { $0.weekday == date.weekday }
  }

  /// The candidates of one month: BYMONTHDAY and BYDAY (ordinals count within
  /// the month) intersected; with neither, `defaultDay` if the month has it.
  private func daysInMonth(_ year: Int, _ month: Int, defaultDay: Int) -> [LocalDate] {
    let length = LocalDate.daysIn(month: month, year: year)
    var days: Set<Int>?
    if !byMonthDay.isEmpty {
      days = Set(
        byMonthDay.map { $0 > 0 ? $0 : length + 1 + $0 }.filter { $0 >= 1 && $0 <= length })
    }
    if !byDay.isEmpty {
      let first = LocalDate(year: year, month: month, day: 1)
      let weekdays = Set(nthWeekdays(first: first.daysSinceEpoch, length: length).map { $0 + 1 })
      days = days.map { $0.intersection(weekdays) } ?? weekdays
    }
    let chosen = days ?? (defaultDay <= length ? [defaultDay] : [])
    return chosen.map { LocalDate(year: year, month: month, day: $0) }
  }

  /// The candidates of one year (RFC 5545's table for FREQ=YEARLY).
  private func daysInYear(_ year: Int, start: LocalDate) -> [LocalDate] {
    if !byMonth.isEmpty {
      let defaultDay = byMonthDay.isEmpty && byDay.isEmpty ? start.day : 0
      return byMonth.flatMap { month -> [LocalDate] in
        if defaultDay > 0 {
          let date = LocalDate(year: year, month: month, day: defaultDay)
          return date.isValid ? [date] : []
        }
        return daysInMonth(year, month, defaultDay: 0)
      }
    }
    if !byDay.isEmpty {
      // BYDAY ordinals count within the whole year; BYMONTHDAY then filters.
      let first = LocalDate(year: year, month: 1, day: 1).daysSinceEpoch
      let length = LocalDate.isLeap(year) ? 366 : 365
      let dates = nthWeekdays(first: first, length: length).map {
        LocalDate(daysSinceEpoch: first + $0)
      }
      return byMonthDay.isEmpty ? dates : dates.filter(matchesFilters)
    }
    if !byMonthDay.isEmpty {
      return (1...12).flatMap { daysInMonth(year, $0, defaultDay: 0) }
    }
    let date = LocalDate(year: year, month: start.month, day: start.day)
    return date.isValid ? [date] : []
  }

  /// Zero-based offsets in a span of `length` days from epoch day `first` that
  /// BYDAY selects: every such weekday for `MO`, the n-th (from the end when
  /// negative) for `2MO` / `-1MO`.
  private func nthWeekdays(first: Int, length: Int) -> [Int] {
    let firstWeekday = LocalDate(daysSinceEpoch: first).weekday.rawValue
    var offsets: [Int] = []
    for spec in byDay {
      let head = (spec.weekday.rawValue - firstWeekday + 7) % 7
      if spec.ordinal == 0 {
        offsets.append(contentsOf: stride(from: head, to: length, by: 7))
      } else if spec.ordinal > 0 {
        let offset = head + 7 * (spec.ordinal - 1)
        if offset < length { offsets.append(offset) }
      } else {
        let lastWeekday = (firstWeekday - 1 + length - 1) % 7 + 1
        let tail = length - 1 - (lastWeekday - spec.weekday.rawValue + 7) % 7
        let offset = tail - 7 * (-spec.ordinal - 1)
        if offset >= 0 { offsets.append(offset) }
      }
    }
    return offsets
  }
}
