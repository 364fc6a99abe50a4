import AlarmCore

/// `alarmclock ring ID`: rings an alarm now, to test it.
struct RingCommand: AlarmControlCommand {
  static let name = "ring"
  static let summary = "ring an alarm now, to test it"
  static let help =
    usage("ID ") + "\n\nRings alarm ID now as a normal ring session (snooze and stop work)."
  var target: ServiceTarget
  var id: String
  var request: ControlRequest { .ring(id: id) }

  func success(_ payload: ReplyPayload) -> String { "ringing '\(id)'" }
}
