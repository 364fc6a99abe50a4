import AlarmCore

/// `alarmclock enable ID`: switches an alarm on (its `enabled = false` becomes `true`).
struct EnableCommand: Command {
  static let name = "enable"
  static let summary = "switch an alarm on in the config file"
  static let help = """
    usage: alarmclock enable ID [--config PATH]

    Switches the alarm on: an enabled = false in its block becomes enabled = true.
    An alarm that is on already is left as it is.
    """
  var configPath: String?
  var id: String

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    id = try arguments.positional("ID")
  }

  func run() -> Int32 { switchAlarm(.enable(id: id), id: id, configPath: configPath, on: true) }
}

/// Enables or disables alarm `id` in the config and says what changed.
func switchAlarm(_ edit: ConfigEdit, id: String, configPath: String?, on: Bool) -> Int32 {
  let editing = ConfigEditing(configOption: configPath)
  return editing.run(edit) { result, zone in
    let state = on ? "enabled" : "disabled"
    printOut(result.changed ? "\(state) alarm '\(id)'" : "alarm '\(id)' already is \(state)")
    if on, let alarm = result.config.alarm(id: id) {
      printOut(
        ConfigEditing.nextLine(
          alarm, config: result.config, zone: zone, env: editing.env))
    }
  }
}
