/// One subcommand of `alarmclock`. Each lives in its own file under Commands/.
protocol Command {
  /// The word after `alarmclock`.
  static var name: String { get }
  /// One line for `alarmclock --help`.
  static var summary: String { get }
  /// The full `--help` text (usage line first).
  static var help: String { get }
  /// Reads and validates the arguments; nothing runs yet.
  init(arguments: inout Arguments) throws(UsageError)
  /// Runs the command and returns the exit code (0 ok, 1 failure).
  func run() -> Int32
}

/// Exit codes shared by every command.
enum ExitCode {
  static let ok: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 2
}
