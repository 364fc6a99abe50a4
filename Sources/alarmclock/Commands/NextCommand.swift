import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService

/// `alarmclock next`: the upcoming firings, from the config and the service's state file,
/// or from the running service.
struct NextCommand: Command {
  static let name = "next"
  static let summary = "show the next alarms to ring"
  static let help = """
    usage: alarmclock next [--config PATH] [--state-dir DIR] [--from ISO-8601] [--count N] [--json]
           alarmclock next --socket PATH [--count N] [--json]

    Shows the next N firings (default 1) after an instant (default now), e.g.
      Mon 06:45 Work (in 7 h 32 min)
    --from takes 2027-03-28T06:45:00+02:00, a local 2027-03-28T06:00 or a date.
    Occurrences skipped before a firing (skip dates and ranges, skip_calendars
    days off, `alarmclock skip`) are listed under it, e.g.
      "  skipped: Christmas Day (2027-12-25)".
    --json prints an array of {id, label, at, time, sound, skipped} with `at` in
    ISO 8601 with its UTC offset and skipped a list of {date, kind, reason}.
    The service's skips and rung one-offs count: they are read from its state file
    in --state-dir, else the config's state_dir, else /var/lib/alarmclock (when it
    cannot be read, from the config alone). With --socket the running service
    answers instead, in the same shape, without reading the config (--config
    and --state-dir are then ignored; N at most 100).
    When the clock is obviously wrong (earlier than this alarmclock's release) a
    warning goes to stderr: the times shown follow that clock.
    """
  var configPath: String?
  var stateDir: String?
  var from: String?
  var count: Int
  var json: Bool
  var socket: String?

  init(arguments: inout Arguments) throws(UsageError) {
    socket = try arguments.option("--socket")
    configPath = try arguments.option("--config")
    stateDir = try arguments.option("--state-dir")
    from = try arguments.option("--from")
    count = try arguments.intOption("--count", in: ControlRequest.offlineNextCountRange) ?? 1
    json = arguments.flag("--json")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    let text = AlarmText(DisplayLocale(environment: env))
    if let socket { return askService(socket, text: text, env: env) }
    OneShotHeap.prepare()
    guard let loaded = OfflineConfig.load(configPath, env: env) else { return ExitCode.failure }
    KeptUntilExit.keep(loaded)
    let now = currentInstant()
    if let warning = ClockTrust.warning(now: now, zone: loaded.zone) { printError(warning) }
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
    let marks = AlarmListing.savedMarks(loaded.config, stateDir: stateDir)
    let upcoming = UpcomingListing(loaded, after: start, count: count, marks: marks, text: text)
    print(upcoming, from: start, zone: loaded.zone)
    return ExitCode.ok
  }

  private func print(_ upcoming: UpcomingListing, from start: Instant, zone: TimeZoneRules) {
    if json {
      printOut(upcoming.json.encoded())
    } else {
      for line in upcoming.lines(from: start, zone: zone) { printOut(line) }
    }
  }

  /// The running service's next firings, printed like the offline ones. The config is
  /// not read: the service knows it.
  private func askService(_ socket: String, text: AlarmText, env: [String: String]) -> Int32 {
    guard from == nil else {
      printError("alarmclock next: --from is not available with --socket")
      return ExitCode.usage
    }
    let zone = ZoneLoader.system(environment: env)
    let now = currentInstant()
    if let warning = ClockTrust.warning(now: now, zone: zone) { printError(warning) }
    let range = ControlRequest.nextCountRange
    guard range.contains(count) else {
      printError(
        "alarmclock next: with --socket, --count is at most \(range.upperBound) (the service's "
          + "limit); without it, up to \(ControlRequest.offlineNextCountRange.upperBound)")
      return ExitCode.usage
    }
    let request = ControlRequest.next(count: count)
    guard let reply = ServiceClient.send(request, socket: socket, command: Self.name) else {
      return ExitCode.failure
    }
    guard case .ok(.next(let firings)) = reply else {
      if case .failure(let error) = reply { return ServiceClient.report(error, command: Self.name) }
      return ExitCode.failure
    }
    print(UpcomingListing(firings, text: text), from: now, zone: zone)
    return ExitCode.ok
  }
}
