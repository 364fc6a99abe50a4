import AlarmCore
import AlarmPlatform
import AlarmService

/// The client side of the control socket, shared by `status`, `snooze`, `stop`, ...
enum ServiceClient {
  /// `--socket`, else `$ALARMCLOCK_SOCKET`, else the config's `[settings] socket` (when the
  /// config can be read), else the system default.
  static func socketPath(_ option: String?, configOption: String?) -> String {
    if let option { return option }
    let env = processEnvironment()
    if let path = env["ALARMCLOCK_SOCKET"] { return path }
    let config = ConfigFile.path(configOption, environment: env)
    if case .success(let loaded) = ConfigFile.load(config, environment: env, now: nil),
      let socket = loaded.config?.settings.socket
    {
      return socket
    }
    return ServicePaths.defaultSocket
  }

  /// Sends `request` and decodes the reply; prints why and returns nil when the service
  /// cannot be reached or answers nonsense.
  static func send(_ request: ControlRequest, socket: String, command: String) -> ControlReply? {
    let line = String(decoding: request.encodedLine().dropLast(), as: UTF8.self)
    let replyLine: String
    do throws(ControlClientError) {
      replyLine = try ControlClient.request(line, socketPath: socket)
    } catch {
      printError("alarmclock \(command): \(error)")
      return nil
    }
    do throws(ControlError) {
      return try ControlReply(line: Array(replyLine.utf8), for: request)
    } catch {
      printError(
        "alarmclock \(command): the service sent a reply this client cannot read: \(error)")
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
