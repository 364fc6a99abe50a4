/// `alarmclock check`: validates the config file. (Placeholder until the config decoder lands.)
struct CheckCommand: Command {
  static let name = "check"
  static let summary = "validate the config file"
  static let help = """
    usage: alarmclock check [--config PATH]

    Validates the config. Exit 0 and a one-line summary when it is valid;
    exit 1 and every error as path:line:col: message when not.
    """
  var configPath: String?

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
  }

  func run() -> Int32 { ExitCode.ok }
}
