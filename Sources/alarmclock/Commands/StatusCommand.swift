import AlarmCore

/// `alarmclock status`: what the running service is doing.
struct StatusCommand: Command {
  static let name = "status"
  static let summary = "show what the running service is doing"
  static let help = """
    usage: alarmclock status [--socket PATH] [--config PATH] [--json]

    Asks the running service: its config and any errors in the file, whether the
    clock is synchronised, the ringing or snoozed alarm, the next alarms, what rang
    or was missed in the last 12 hours, and the state of audio and inputs.
    --json prints the reply object of docs/protocol.md. Exit status 1 when the
    service is not running.
    """
  var target: ServiceTarget
  var json: Bool

  init(arguments: inout Arguments) throws(UsageError) {
    target = try ServiceTarget(&arguments)
    json = arguments.flag("--json")
  }

  func run() -> Int32 {
    guard let reply = ServiceClient.send(.status, socket: target.socketPath, command: Self.name)
    else {
      return ExitCode.failure
    }
    switch reply {
    case .failure(let error): return ServiceClient.report(error, command: Self.name)
    case .ok(let payload):
      guard case .status(let report) = payload else { return ExitCode.failure }
      if json {
        printOut(String(decoding: reply.encodedLine().dropLast(), as: UTF8.self))
      } else {
        printOut(StatusText.render(report))
      }
      return ExitCode.ok
    }
  }
}
