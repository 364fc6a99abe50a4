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
        printOut(StatusCommand.text(report))
      }
      return ExitCode.ok
    }
  }

  /// The report for people.
  static func text(_ r: StatusReport) -> String {
    var lines: [String] = []
    lines.append(
      "alarmclock \(r.version), config \(r.config.path): "
        + (r.config.ok ? "ok" : "has errors, the last good config is in force"))
    for e in r.config.errors { lines.append("  \(e)") }
    switch r.clockSynchronized {
    case true?: lines.append("clock: synchronised")
    case false?:
      lines.append("clock: not synchronised yet (alarms follow the clock as it is now)")
    case nil: lines.append("clock: synchronisation unknown")
    }
    if let s = r.session {
      let name = s.label.map { "\($0) (\(s.id))" } ?? s.id
      let snoozes = s.snoozes == 0 ? "" : ", snoozed \(s.snoozes) time\(s.snoozes == 1 ? "" : "s")"
      switch s.state {
      case .ringing: lines.append("ringing: \(name) until \(display(s.until))\(snoozes)")
      case .snoozed: lines.append("snoozed: \(name) rings again at \(display(s.until))\(snoozes)")
      }
    }
    if r.next.isEmpty {
      lines.append("next: no alarm is set")
    } else {
      lines.append("next:")
      for f in r.next { lines.append("  \(display(f.at))  \(f.label ?? f.id) (\(f.id))") }
    }
    if !r.history.isEmpty {
      lines.append("last 12 hours:")
      for h in r.history {
        let more = h.more > 0 ? " (and \(h.more) earlier)" : ""
        lines.append(
          "  \(h.kind.rawValue) \(h.label ?? h.id) (\(h.id)) of \(display(h.firing))\(more)")
      }
    }
    lines.append("inputs:")
    for i in r.inputs {
      lines.append("  \(i.name): \(i.available ? "" : "unavailable: ")\(i.detail)")
    }
    return lines.joined(separator: "\n")
  }

  /// `2026-12-07T06:45:00+01:00` as `2026-12-07 06:45` (seconds kept when not zero).
  static func display(_ iso: String) -> String {
    let chars = Array(iso)
    guard chars.count >= 19, chars[10] == "T" else { return iso }
    let seconds = String(chars[17..<19])
    let end = seconds == "00" ? 16 : 19
    return String(chars[0..<10]) + " " + String(chars[11..<end])
  }
}
