import TOML

/// One problem found in a config file, with where it is.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  public enum Severity: String, Hashable, Sendable {
    /// The file is not used (`check` exits 1, the service keeps its old config).
    case error
    /// The file is used, but something is probably not what was meant.
    case warning
  }

  public var severity: Severity
  public var position: SourcePosition
  /// Plain words, lower-case start, no trailing period.
  public var message: String

  public init(_ severity: Severity, at position: SourcePosition, _ message: String) {
    self.severity = severity
    self.position = position
    self.message = message
  }

  /// `path:line:col: message`, warnings as `path:line:col: warning: message`.
  public func formatted(path: String) -> String {
    "\(path):\(description)"
  }

  /// `line:col: message` (`line:col: warning: message`).
  public var description: String {
    let prefix = severity == .warning ? "warning: " : ""
    return "\(position.line):\(position.column): \(prefix)\(message)"
  }
}

/// What `ConfigDecoder.decode` found: the config when there are no errors, and
/// every diagnostic (errors and warnings) in source order.
public struct ConfigResult: Sendable {
  /// The path the text was read from (used in messages only).
  public var path: String
  /// nil when any diagnostic is an error.
  public var config: Config?
  public var diagnostics: [Diagnostic]

  public init(path: String, config: Config?, diagnostics: [Diagnostic]) {
    self.path = path
    self.config = config
    self.diagnostics = diagnostics
  }

  public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
  public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
  /// Every diagnostic as `path:line:col: message`, one per element.
  public var formatted: [String] { diagnostics.map { $0.formatted(path: path) } }

  /// The one line `check` prints: `PATH: ok, 5 alarms (4 enabled)`, with
  /// `, 1 warning` appended when there are warnings; `PATH: 2 errors, 1 warning`
  /// for an unusable file.
  public var summary: String {
    func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    let warnings = self.warnings.count
    let warningText = warnings > 0 ? ", " + count(warnings, "warning") : ""
    guard let config else { return "\(path): \(count(errors.count, "error"))\(warningText)" }
    let enabled = config.alarms.count { $0.enabled }
    return "\(path): ok, \(count(config.alarms.count, "alarm")) (\(enabled) enabled)\(warningText)"
  }
}
