import AlarmCore

/// `alarmclock stop`: ends the ring session, ringing or snoozed.
struct StopCommand: PlainControlCommand {
  static let name = "stop"
  static let summary = "stop the ringing or snoozed alarm"
  static let help = usage("") + "\n\nEnds the ring session, ringing or snoozed."
  var target: ServiceTarget
  var request: ControlRequest { .stop }

  func success(_ payload: ReplyPayload) -> String { "stopped" }
}
