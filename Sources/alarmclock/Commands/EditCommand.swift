import AlarmCore

/// `alarmclock edit ID`: changes keys of one alarm in place.
struct EditCommand: Command {
  static let name = "edit"
  static let summary = "change an alarm in the config file"
  static let help = """
    usage: alarmclock edit ID [OPTIONS] [--unset KEY]... [--config PATH]

    Changes the alarm ID where it is written: the given keys are set in place, new
    keys get lines of their own, and every other line of the file (comments too)
    stays as it is. When its id is derived from the label and time and one of those
    changes, id = "ID" is written into the alarm so that its id stays the same.

    options:
      --time TIME       HH:MM or HH:MM:SS
    \(AlarmOptions.help)
      --enabled         written with enabled = true
      --unset KEY       remove KEY from the alarm: it inherits [defaults] again
                        (repeatable); KEY is one of
    \(Self.unsetKeys)
    """

  /// The keys `--unset` takes, wrapped for the help.
  static var unsetKeys: String {
    var lines: [String] = []
    var line = ""
    for key in AlarmKey.unsettableKeys.map(\.rawValue) {
      if !line.isEmpty, line.count + key.count + 2 > 56 {
        lines.append(String(repeating: " ", count: 20) + line + ",")
        line = ""
      }
      line += line.isEmpty ? key : ", " + key
    }
    return (lines + [String(repeating: " ", count: 20) + line]).joined(separator: "\n")
  }
  var configPath: String?
  var id: String
  var changes = AlarmChanges()

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    try AlarmOptions.read(&arguments, into: &changes)
    if arguments.flag("--enabled") {
      guard changes.values[.enabled] == nil else {
        throw UsageError("--enabled and --disabled contradict each other")
      }
      changes.values[.enabled] = .boolean(true)
    }
    for name in try arguments.options("--unset") {
      guard let key = AlarmKey(spelled: name), key.unsettable else {
        let keys = AlarmKey.unsettableKeys.map(\.rawValue).joined(separator: ", ")
        throw UsageError("--unset wants one of \(keys), not '\(name)'")
      }
      changes.unset.insert(key)
    }
    id = try arguments.positional("ID")
    if changes.isEmpty { throw UsageError("nothing to change: give an option such as --time") }
  }

  func run() -> Int32 {
    let editing = ConfigEditing(configOption: configPath)
    return editing.run(.edit(id: id, changes)) { result, zone in
      printOut(
        result.changed ? "changed alarm '\(result.alarmID)'" : "alarm '\(id)' already is so")
      if let alarm = result.config.alarm(id: result.alarmID) {
        printOut(
          ConfigEditing.nextLine(
            alarm, config: result.config, zone: zone, env: editing.env))
      }
    }
  }
}
