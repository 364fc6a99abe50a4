import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmService

/// `alarmclock list`: the alarms, sorted by time, with their repeat summaries.
struct ListCommand: Command {
  static let name = "list"
  static let summary = "list the alarms, sorted by time"
  static let help = """
    usage: alarmclock list [--config PATH] [--state-dir DIR] [--json]

    Lists the alarms sorted by time: time, on/off, repeat summary, label and id.
    A one-off that has rung shows as done (read from the service's state file in
    --state-dir, else the config's state_dir, else /var/lib/alarmclock, when it
    can be read). Under an alarm, the occurrences skipped before its next firing
    (skip dates and ranges, skip_calendars days off) and why; --json adds them as
    skipped, a list of {date, kind, reason}.
    Summaries and labels follow the locale (LC_ALL, LC_MESSAGES, LANG): English,
    or Traditional Chinese for zh_TW.
    """
  var configPath: String?
  var json: Bool
  var stateDir: String?

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    stateDir = try arguments.option("--state-dir")
    json = arguments.flag("--json")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    guard let loaded = OfflineConfig.load(configPath, env: env) else { return ExitCode.failure }
    let listing = AlarmListing(
      loaded, stateDir: stateDir, text: AlarmText(DisplayLocale(environment: env)),
      now: currentInstant())
    if json {
      printOut(listing.json.encoded())
    } else {
      for line in listing.lines { printOut(line) }
    }
    return ExitCode.ok
  }
}
