import AlarmClient
import AlarmCore
import AlarmService

/// `alarmclock next`: the upcoming firings, computed from the config alone.
struct NextCommand: Command {
  static let name = "next"
  static let summary = "show the next alarms to ring"
  static let help = """
    usage: alarmclock next [--config PATH] [--from ISO-8601] [--count N] [--json]
           alarmclock next --socket PATH [--count N] [--json]

    Shows the next N firings (default 1) after an instant (default now), e.g.
      Mon 06:45 Work (in 7 h 32 min)
    --from takes 2027-03-28T06:00:00+02:00, a local 2027-03-28T06:00 or a date.
    Occurrences skipped before a firing (skip dates and ranges, skip_calendars
    days off) are listed under it, e.g. "  skipped: Christmas Day (2027-12-25)".
    --json prints an array of {id, label, at, sound, skipped} with `at` in ISO 8601
    with its UTC offset and skipped a list of {date, kind, reason}. Read from the config only: skips made with `alarmclock skip`
    are known to the running service; with --socket the running service answers
    instead (skips and done one-offs included; N at most 100).
    When the clock is obviously wrong (earlier than this alarmclock's release) a
    warning goes to stderr: the times shown follow that clock.
    """
  var configPath: String?
  var from: String?
  var count: Int
  var json: Bool
  var socket: String?

  init(arguments: inout Arguments) throws(UsageError) {
    socket = try arguments.option("--socket")
    configPath = try arguments.option("--config")
    from = try arguments.option("--from")
    count = try arguments.intOption("--count", in: 1...10_000) ?? 1
    json = arguments.flag("--json")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    guard let loaded = OfflineConfig.load(configPath, env: env) else { return ExitCode.failure }
    let now = currentInstant()
    if let warning = ClockTrust.warning(now: now, zone: loaded.zone) { printError(warning) }
    if let socket { return askService(socket, zone: loaded.zone, env: env) }
    var start = now
    if let from {
      guard let instant = ISO8601Text.parse(from, in: loaded.zone) else {
        printError(
          "alarmclock next: --from wants an ISO 8601 time such as 2027-03-28T06:45:00+02:00, not '\(from)'"
        )
        return ExitCode.usage
      }
      start = instant
    }
    let text = AlarmText(DisplayLocale(environment: env))
    let upcoming = UpcomingListing(loaded, after: start, count: count, text: text)
    let firings = upcoming.firings
    let yearOn = loaded.zone.local(at: start).date.adding(days: 366)
    if json {
      printOut(upcoming.json.encoded())
      return ExitCode.ok
    }
    if firings.isEmpty {
      printOut(text.locale == .english ? "no alarm will ring" : "沒有即將響起的鬧鐘")
      printQuiet(loaded, after: start, until: yearOn, text: text)
      return ExitCode.ok
    }
    for (f, skipped) in zip(firings, upcoming.skipped) {
      let local = loaded.zone.local(at: f.at)
      let label = upcoming.byID[f.alarmID].map(text.label) ?? f.alarmID
      printOut(text.firing(date: local.date, time: local.time, label: label, until: f.at - start))
      for line in text.skippedLines(skipped, cut: skipped.count == Schedule.skippedLimit) {
        printOut("  " + line)
      }
      if f.date > yearOn { printOut("  " + text.skippedUntil(label: label, until: yearOn)) }
    }
    return ExitCode.ok
  }

  /// Under "no alarm will ring": each enabled alarm kept quiet by skipped days (a calendar
  /// covering every day for years), with why, so the silence is never unexplained.
  private func printQuiet(
    _ loaded: OfflineConfig, after start: Instant, until yearOn: LocalDate, text: AlarmText
  ) {
    let schedule = Schedule(
      alarms: loaded.config.alarms, zone: loaded.zone, daysOff: loaded.daysOff(at: start))
    for alarm in schedule.alarms {
      let skipped = schedule.skipped(of: alarm.id, after: start, marks: ScheduleMarks())
      guard !skipped.isEmpty else { continue }
      let label = text.label(alarm)
      printOut("\(label):")
      for line in text.skippedLines(skipped, cut: skipped.count == Schedule.skippedLimit) {
        printOut("  " + line)
      }
      printOut("  " + text.skippedUntil(label: label, until: yearOn))
    }
  }

  /// The running service's next firings (its skips and done one-offs count), printed
  /// like the offline ones.
  private func askService(_ socket: String, zone: TimeZoneRules, env: [String: String]) -> Int32 {
    guard from == nil else {
      printError("alarmclock next: --from is not available with --socket")
      return ExitCode.usage
    }
    let request = ControlRequest.next(count: min(count, ControlRequest.nextCountRange.upperBound))
    guard let reply = ServiceClient.send(request, socket: socket, command: Self.name) else {
      return ExitCode.failure
    }
    guard case .ok(.next(let firings)) = reply else {
      if case .failure(let error) = reply { return ServiceClient.report(error, command: Self.name) }
      return ExitCode.failure
    }
    if json {
      let items: [JSONValue] = firings.map {
        .object([
          "id": .string($0.id), "label": $0.label.map(JSONValue.string) ?? .null,
          "at": .string($0.at),
        ])
      }
      printOut(JSONValue.array(items).encoded())
      return ExitCode.ok
    }
    let text = AlarmText(DisplayLocale(environment: env))
    if firings.isEmpty {
      printOut(text.locale == .english ? "no alarm will ring" : "沒有即將響起的鬧鐘")
      return ExitCode.ok
    }
    let now = currentInstant()
    for f in firings {
      guard let at = ISO8601Text.parse(f.at, in: zone) else {
        printOut("\(f.at) \(f.label ?? f.id)")
        continue
      }
      let local = zone.local(at: at)
      printOut(
        text.firing(
          date: local.date, time: local.time, label: f.label ?? text.defaultLabel,
          until: at - now))
    }
    return ExitCode.ok
  }
}
