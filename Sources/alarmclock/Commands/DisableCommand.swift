import AlarmCore

/// `alarmclock disable ID`: switches an alarm off, keeping it in the file.
struct DisableCommand: Command {
  static let name = "disable"
  static let summary = "switch an alarm off in the config file"
  static let help = """
    usage: alarmclock disable ID [--config PATH]

    Switches the alarm off without deleting it: writes enabled = false into its
    block (or changes the enabled line it has).
    """
  var configPath: String?
  var id: String

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    id = try arguments.positional("ID")
  }

  func run() -> Int32 { switchAlarm(.disable(id: id), id: id, configPath: configPath, on: false) }
}
