import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService

/// `alarmclock check`: validates the config file.
struct CheckCommand: Command {
  static let name = "check"
  static let summary = "validate the config file"
  static let help = """
    usage: alarmclock check [--config PATH]

    Validates the config (default: $ALARMCLOCK_CONFIG, else /etc/alarmclock/alarms.toml).
    Exit 0 and a one-line summary when it is valid; exit 1 and every error as
    path:line:col: message when not. Warnings are printed either way, and one
    when the clock is obviously wrong (earlier than this alarmclock's release).
    """
  var configPath: String?

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
  }

  func run() -> Int32 {
    OneShotHeap.prepare()
    let env = processEnvironment()
    let path = ConfigFile.path(configPath, environment: env)
    let now = currentInstant()
    switch ConfigFile.load(path, environment: env, now: now) {
    case .failure(let reason):
      printError(reason.description)
      return ExitCode.failure
    case .success(let loaded):
      KeptUntilExit.keep(loaded)
      for m in loaded.messages { printError(m) }
      if let warning = ClockTrust.warning(now: now, zone: loaded.zone) { printError(warning) }
      guard loaded.config != nil else {
        let errors = loaded.errors.count
        printError("\(path): \(errors) error\(errors == 1 ? "" : "s")")
        return ExitCode.failure
      }
      printOut(loaded.result.summary)
      return ExitCode.ok
    }
  }
}
