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

/// What a one-shot command keeps until the process exits instead of freeing it: the tree
/// and alarms of a config of thousands of alarms take milliseconds to free, memory the exit
/// gives back at once (docs/reliability.md, "Scale").
enum KeptUntilExit {
  nonisolated(unsafe) private static var kept: [Any] = []

  /// Keeps `value` alive until `exit`.
  static func keep(_ value: Any) { kept.append(value) }
}
