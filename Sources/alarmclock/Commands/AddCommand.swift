import AlarmCore

/// `alarmclock add`: appends a new `[[alarm]]` block to the config file.
struct AddCommand: Command {
  static let name = "add"
  static let summary = "add an alarm to the config file"
  static let help = """
    usage: alarmclock add TIME [OPTIONS] [--config PATH]

    Appends an [[alarm]] block at TIME (HH:MM or HH:MM:SS) to the end of the config,
    leaving the rest of the file as it is, and prints the new alarm's id and when it
    rings next. Without --id the id is derived from the label and time.

    options:
    \(AlarmOptions.help)
    """
  var configPath: String?
  var changes = AlarmChanges()

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    try AlarmOptions.read(&arguments, into: &changes)
    guard changes.values[.time] == nil else {
      throw UsageError("give the time as the first argument, not with --time")
    }
    let time = try arguments.positional("TIME")
    switch AlarmValueText.time(time) {
    case .success(let v): changes.values[.time] = v
    case .failure(let e): throw UsageError("TIME wants \(e.expectation)")
    }
  }

  func run() -> Int32 {
    let editing = ConfigEditing(configOption: configPath)
    return editing.run(.add(changes)) { result, zone in
      printOut("added alarm '\(result.alarmID)'")
      if let alarm = result.config.alarm(id: result.alarmID) {
        printOut(
          ConfigEditing.nextLine(
            alarm, config: result.config, zone: zone, env: editing.env))
      }
    }
  }
}
