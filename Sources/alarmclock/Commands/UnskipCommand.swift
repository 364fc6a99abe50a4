import AlarmCore

/// `alarmclock unskip ID`: takes a skip back.
struct UnskipCommand: AlarmControlCommand {
  static let name = "unskip"
  static let summary = "take back a skip"
  static let help = usage("ID ") + "\n\nUndoes 'skip ID'."
  var target: ServiceTarget
  var id: String
  var request: ControlRequest { .unskip(id: id) }

  func success(_ payload: ReplyPayload) -> String {
    guard case .skip(let info) = payload, let at = info.at else { return "unskipped" }
    return "unskipped '\(info.id)': next at \(StatusText.instant(at))"
  }
}
