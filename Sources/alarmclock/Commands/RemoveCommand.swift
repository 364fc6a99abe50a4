/// `alarmclock remove ID`: deletes one alarm from the config file.
struct RemoveCommand: Command {
  static let name = "remove"
  static let summary = "remove an alarm from the config file"
  static let help = """
    usage: alarmclock remove ID [--config PATH]

    Deletes the alarm's [[alarm]] block, with the comment lines right above its
    header; the comment lines right above the next header stay, and so does the
    rest of the file.
    """
  var configPath: String?
  var id: String

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    id = try arguments.positional("ID")
  }

  func run() -> Int32 {
    ConfigEditing(configOption: configPath).run(.remove(id: id)) { _, _ in
      printOut("removed alarm '\(id)'")
    }
  }
}
