import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService

/// The client side of the control socket, shared by `status`, `snooze`, `stop`, ...
enum ServiceClient {
  /// `--socket`, else `$ALARMCLOCK_SOCKET`, else the config's `[settings] socket` (when the
  /// config can be read), else the system default.
  static func socketPath(_ option: String?, configOption: String?) -> String {
    let env = processEnvironment()
    return ServiceRequests.socketPath(
      option, configPath: ConfigFile.path(configOption, environment: env), environment: env)
  }

  /// Sends `request` through AlarmClient's `ServiceRequests` (the web process's path too);
  /// prints why and returns nil when the service cannot be reached or answers nonsense.
  static func send(_ request: ControlRequest, socket: String, command: String) -> ControlReply? {
    switch ServiceRequests.send(request, socket: socket) {
    case .success(let payload): return .ok(payload)
    case .failure(let error):
      if case .service(let code) = error.kind {
        return .failure(ControlError(code, error.message, details: error.details))
      }
      printError("alarmclock \(command): \(error.message)")
      return nil
    }
  }

  /// Prints a failure reply (message and details) and returns the exit code.
  static func report(_ error: ControlError, command: String) -> Int32 {
    printError("alarmclock \(command): \(error.message)")
    for d in error.details { printError("  \(d)") }
    return ExitCode.failure
  }
}
