import AlarmCore
import AlarmFiles
import AlarmPlatform

/// The client side of the control socket, shared by the CLI's `status`, `snooze`, ...
/// and the web process.
public enum ServiceRequests {
  /// `option`, else `$ALARMCLOCK_SOCKET`, else the config's `[settings] socket` (read
  /// leniently from a broken config, as the service does), else the system default.
  public static func socketPath(
    _ option: String?, configPath: String, environment env: [String: String]
  ) -> String {
    if let option { return option }
    if let path = env["ALARMCLOCK_SOCKET"] { return path }
    if let socket = ConfigFile.settings(configPath, environment: env, now: nil)?.socket {
      return socket
    }
    return ServicePaths.defaultSocket
  }

  /// Sends `request` and decodes the reply. A failure reply is returned as `.failure`
  /// with the service's code; an unreachable service is `.notRunning`.
  public static func send(
    _ request: ControlRequest, socket: String, timeout: Duration = .seconds(5)
  )
    -> Result<ReplyPayload, ClientError>
  {
    let line = String(decoding: request.encodedLine().dropLast(), as: UTF8.self)
    let replyLine: String
    do throws(ControlClientError) {
      replyLine = try ControlClient.request(line, socketPath: socket, timeout: timeout)
    } catch {
      switch error {
      case .notRunning, .permissionDenied, .timedOut, .noReply:
        return .failure(ClientError(.notRunning, error.description))
      case .system:
        return .failure(ClientError(.notRunning, error.description))
      }
    }
    do throws(ControlError) {
      switch try ControlReply(line: Array(replyLine.utf8), for: request) {
      case .ok(let payload): return .success(payload)
      case .failure(let e):
        return .failure(ClientError(.service(e.code), e.message, details: e.details))
      }
    } catch {
      return .failure(
        ClientError(.badReply, "the service sent a reply this client cannot read: \(error)"))
    }
  }
}
