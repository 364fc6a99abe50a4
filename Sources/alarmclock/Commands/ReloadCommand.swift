import AlarmCore

/// `alarmclock reload`: makes the service read its config again.
struct ReloadCommand: PlainControlCommand {
  static let name = "reload"
  static let summary = "make the service read its config again"
  static let help =
    usage("")
    + "\n\nThe service also sees saved edits by itself; this reports the file's errors."
  var target: ServiceTarget
  var request: ControlRequest { .reload }

  func success(_ payload: ReplyPayload) -> String { "config reloaded" }
}
