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

/// A control command with no argument of its own (`snooze`, `stop`, `reload`).
protocol PlainControlCommand: ControlCommand {
  init(target: ServiceTarget)
}

extension PlainControlCommand {
  init(arguments: inout Arguments) throws(UsageError) {
    self.init(target: try ServiceTarget(&arguments))
  }
}

/// A control command about one alarm, named by the positional `ID` (`skip`, `unskip`, `ring`).
protocol AlarmControlCommand: ControlCommand {
  init(target: ServiceTarget, id: String)
}

extension AlarmControlCommand {
  init(arguments: inout Arguments) throws(UsageError) {
    let target = try ServiceTarget(&arguments)
    self.init(target: target, id: try arguments.positional("ID"))
  }
}
