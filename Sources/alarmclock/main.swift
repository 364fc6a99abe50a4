import AlarmCore

#if canImport(Glibc)
  import Glibc
#endif

/// Every subcommand, in the order `--help` lists them.
let commands: [any Command.Type] = [
  CheckCommand.self,
  ListCommand.self,
  NextCommand.self,
  PlayCommand.self,
  AddCommand.self,
  EditCommand.self,
  RemoveCommand.self,
  EnableCommand.self,
  DisableCommand.self,
  RemindCommand.self,
  RunCommand.self,
  StatusCommand.self,
  SnoozeCommand.self,
  StopCommand.self,
  SkipCommand.self,
  UnskipCommand.self,
  ReloadCommand.self,
  RingCommand.self,
  SayTimeCommand.self,
  WebCommand.self,
]

@MainActor func topLevelHelp() -> String {
  var text = """
    usage: alarmclock COMMAND [OPTIONS]

    A headless alarm-clock service for a bedside Linux box.

    commands:

    """
  for c in commands {
    let padded = c.name + String(repeating: " ", count: max(1, 10 - c.name.count))
    text += "  \(padded)\(c.summary)\n"
  }
  text += "\nRun 'alarmclock COMMAND --help' for a command's options, 'alarmclock --version'"
  text += " for the version."
  return text
}

var argv = Array(CommandLine.arguments.dropFirst())
guard let word = argv.first else {
  printError(topLevelHelp())
  exit(ExitCode.usage)
}
argv.removeFirst()
if word == "--help" || word == "-h" || word == "help" {
  printOut(topLevelHelp())
  exit(ExitCode.ok)
}
if word == "--version" || word == "-V" {
  printOut("alarmclock \(AlarmclockVersion.string)")
  exit(ExitCode.ok)
}
guard let command = commands.first(where: { $0.name == word }) else {
  printError("alarmclock: unknown command '\(word)'\n\n" + topLevelHelp())
  exit(ExitCode.usage)
}
if argv.contains("--help") || argv.contains("-h") {
  printOut(command.help)
  exit(ExitCode.ok)
}
var arguments = Arguments(argv)
do {
  let instance = try command.init(arguments: &arguments)
  try arguments.finish()
  exit(instance.run())
} catch {
  printError("alarmclock \(word): \(error.message)\n\n\(command.help)")
  exit(ExitCode.usage)
}
