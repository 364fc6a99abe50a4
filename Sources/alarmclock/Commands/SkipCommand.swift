import AlarmCore

/// `alarmclock skip ID`: skips the alarm's next occurrence.
struct SkipCommand: AlarmControlCommand {
  static let name = "skip"
  static let summary = "skip an alarm's next occurrence"
  static let help =
    usage("ID ") + "\n\nSkips the next occurrence of alarm ID only ('unskip ID' takes it back)."
  var target: ServiceTarget
  var id: String
  var request: ControlRequest { .skip(id: id) }

  func success(_ payload: ReplyPayload) -> String {
    guard case .skip(let info) = payload, let at = info.at else { return "skipped" }
    return "skipped '\(info.id)' at \(StatusText.instant(at))"
  }
}
