import AlarmCore

/// The commands that ask the running service to do one thing: `snooze`, `stop`,
/// `skip ID`, `unskip ID`, `reload` and `ring ID`. Each prints one line and exits 0, or
/// prints why not and exits 1 (not running, nothing ringing, unknown alarm, ...).
protocol ControlCommand: Command {
  var target: ServiceTarget { get }
  var request: ControlRequest { get }
  /// The line printed for a successful reply.
  func success(_ payload: ReplyPayload) -> String
}

extension ControlCommand {
  func run() -> Int32 {
    guard let reply = ServiceClient.send(request, socket: target.socketPath, command: Self.name)
    else {
      return ExitCode.failure
    }
    switch reply {
    case .failure(let error): return ServiceClient.report(error, command: Self.name)
    case .ok(let payload):
      printOut(success(payload))
      return ExitCode.ok
    }
  }

  static func usage(_ rest: String) -> String {
    "usage: alarmclock \(name) \(rest)[--socket PATH] [--config PATH]"
  }
}

struct SnoozeCommand: ControlCommand {
  static let name = "snooze"
  static let summary = "snooze the ringing alarm"
  static let help = usage("") + "\n\nSilences the ringing alarm for its snooze length."
  var target: ServiceTarget
  var request: ControlRequest { .snooze }

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
  }

  func success(_ payload: ReplyPayload) -> String {
    guard case .snooze(let until) = payload else { return "snoozed" }
    return "snoozed until \(StatusText.instant(until))"
  }
}

struct StopCommand: ControlCommand {
  static let name = "stop"
  static let summary = "stop the ringing or snoozed alarm"
  static let help = usage("") + "\n\nEnds the ring session, ringing or snoozed."
  var target: ServiceTarget
  var request: ControlRequest { .stop }

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
  }

  func success(_ payload: ReplyPayload) -> String { "stopped" }
}

struct SkipCommand: ControlCommand {
  static let name = "skip"
  static let summary = "skip an alarm's next occurrence"
  static let help =
    usage("ID ") + "\n\nSkips the next occurrence of alarm ID only ('unskip ID' takes it back)."
  var target: ServiceTarget
  var id: String
  var request: ControlRequest { .skip(id: id) }

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
    id = try arguments.positional("ID")
  }

  func success(_ payload: ReplyPayload) -> String {
    guard case .skip(let info) = payload, let at = info.at else { return "skipped" }
    return "skipped '\(info.id)' at \(StatusText.instant(at))"
  }
}

struct UnskipCommand: ControlCommand {
  static let name = "unskip"
  static let summary = "take back a skip"
  static let help = usage("ID ") + "\n\nUndoes 'skip ID'."
  var target: ServiceTarget
  var id: String
  var request: ControlRequest { .unskip(id: id) }

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
    id = try arguments.positional("ID")
  }

  func success(_ payload: ReplyPayload) -> String {
    guard case .skip(let info) = payload, let at = info.at else { return "unskipped" }
    return "unskipped '\(info.id)': next at \(StatusText.instant(at))"
  }
}

struct ReloadCommand: ControlCommand {
  static let name = "reload"
  static let summary = "make the service read its config again"
  static let help =
    usage("")
    + "\n\nThe service also sees saved edits by itself; this reports the file's errors."
  var target: ServiceTarget
  var request: ControlRequest { .reload }

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
  }

  func success(_ payload: ReplyPayload) -> String { "config reloaded" }
}

struct RingCommand: ControlCommand {
  static let name = "ring"
  static let summary = "ring an alarm now, to test it"
  static let help =
    usage("ID ") + "\n\nRings alarm ID now as a normal ring session (snooze and stop work)."
  var target: ServiceTarget
  var id: String
  var request: ControlRequest { .ring(id: id) }

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
    id = try arguments.positional("ID")
  }

  func success(_ payload: ReplyPayload) -> String { "ringing '\(id)'" }
}

/// Which service a client command talks to: `--socket`, or the one the config names.
struct ServiceTarget {
  var socket: String?
  var configPath: String?

  init(_ arguments: inout Arguments) throws(UsageError) {
    socket = try arguments.option("--socket")
    configPath = try arguments.option("--config")
  }

  var socketPath: String { ServiceClient.socketPath(socket, configOption: configPath) }
}
