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
    /// No reminder has the id.
    case unknownReminder
    /// The file changed since it was read (or since the ETag the client holds).
    case changed
    /// The config file on disk has errors; edits wait until it is fixed.
    case configInvalid
    /// The reminder list on disk has errors; edits wait until it is fixed.
    case remindersInvalid
    /// The file cannot be read or written.
    case io
    /// The service is not running (or cannot be reached).
    case notRunning
    /// The service refused the request (its control error code).
    case service(ControlErrorCode)
    /// The service sent a reply this client cannot read.
    case badReply
  }

  public var kind: Kind
  /// The first line the CLI prints.
  public var message: String
  /// Further lines (config diagnostics as `path:line:col: message`).
  public var details: [String]

  /// The CLI prints the details before the message (a file's errors, then the verdict).
  public var detailsFirst: Bool

  public init(_ kind: Kind, _ message: String, details: [String] = [], detailsFirst: Bool = false) {
    self.kind = kind
    self.message = message
    self.details = details
    self.detailsFirst = detailsFirst
  }

  /// The refusal of an edit sent with an ETag the file no longer has.
  public static func changedSinceRead(_ path: String) -> ClientError {
    ClientError(
      .changed,
      "\(path) changed since it was read (another editor saved it?); nothing was written: "
        + "reload and try again")
  }

  /// The refusal of an edit when another editor saved the file while it was being made.
  public static func changedDuringEdit(_ path: String) -> ClientError {
    ClientError(
      .changed,
      "\(path) changed while this edit was being made (another editor saved it?); "
        + "nothing was written: run the command again")
  }

  /// "PATH: no WHAT has the id 'ID'", with the likely typos, or the ids when they are few,
  /// or where to see them: the refusal of an edit naming an alarm or a reminder that is
  /// not there.
  public static func unknownID(
    _ kind: Kind, path: String, what: String, id: String, near: [String], ids: [String],
    none: String, lister: String
  ) -> ClientError {
    var message = "\(path): no \(what) has the id '\(id)'"
    if !near.isEmpty {
      message += "; did you mean " + near.map { "'\($0)'" }.joined(separator: ", ") + "?"
    } else if ids.isEmpty {
      message += " (\(none))"
    } else if ids.count <= 12 {
      message += "; the ids are " + ids.map { "'\($0)'" }.joined(separator: ", ")
    } else {
      message += " ('\(lister)' shows the ids)"
    }
    return ClientError(kind, message)
  }

  /// The lines the CLI prints, in order.
  public var lines: [String] { detailsFirst ? details + [message] : [message] + details }

  /// The stable code: the control protocol's for service refusals, else the kind's name.
  public var code: String {
    switch kind {
    case .invalidValue: "invalid-value"
    case .unknownAlarm: "unknown-alarm"
    case .unknownReminder: "unknown-reminder"
    case .changed: "config-changed"
    case .configInvalid: "config-invalid"
    case .remindersInvalid: "reminders-invalid"
    case .io: "io"
    case .notRunning: "not-running"
    case .service(let code): code.rawValue
    case .badReply: "bad-reply"
    }
  }

  public var description: String { lines.joined(separator: "\n") }
}
