import AlarmCore

/// Why a client operation (a config edit, a request to the service) failed: a stable
/// code for programs and the sentences the CLI prints for people.
public struct ClientError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure, for the caller to map (an exit code, an HTTP status).
  public enum Kind: Hashable, Sendable {
    /// A value the user gave is not valid (the file is left as it was).
    case invalidValue
    /// No alarm has the id.
    case unknownAlarm
    /// The file changed since it was read (or since the ETag the client holds).
    case changed
    /// The config file on disk has errors; edits wait until it is fixed.
    case configInvalid
    /// The file cannot be read or written.
    case io
    /// The service is not running (or cannot be reached).
    case notRunning
    /// The service refused the request (its control error code).
    case service(ControlErrorCode)
  }

  public var kind: Kind
  /// The first line the CLI prints.
  public var message: String
  /// Further lines (config diagnostics as `path:line:col: message`).
  public var details: [String]

  public init(_ kind: Kind, _ message: String, details: [String] = []) {
    self.kind = kind
    self.message = message
    self.details = details
  }

  /// The stable code: the control protocol's for service refusals, else the kind's name.
  public var code: String {
    switch kind {
    case .invalidValue: "invalid-value"
    case .unknownAlarm: "unknown-alarm"
    case .changed: "config-changed"
    case .configInvalid: "config-invalid"
    case .io: "io"
    case .notRunning: "not-running"
    case .service(let code): code.rawValue
    }
  }

  public var description: String { ([message] + details).joined(separator: "\n") }
}
