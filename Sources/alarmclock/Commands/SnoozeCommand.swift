import AlarmCore

/// `alarmclock snooze`: snoozes the ringing alarm.
struct SnoozeCommand: PlainControlCommand {
  static let name = "snooze"
  static let summary = "snooze the ringing alarm"
  static let help = usage("") + "\n\nSilences the ringing alarm for its snooze length."
  var target: ServiceTarget
  var request: ControlRequest { .snooze }

  func success(_ payload: ReplyPayload) -> String {
    guard case .snooze(let until) = payload else { return "snoozed" }
    return "snoozed until \(StatusText.instant(until))"
  }
}
