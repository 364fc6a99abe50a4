import TOML

/// The reminder list as decoded from its file, in list order.
public struct ReminderList: Sendable {
  public var reminders: [Reminder]
  /// Where each reminder is written, by index (the same order as `reminders`).
  public var sources: [ReminderSource]

  public init(reminders: [Reminder] = [], sources: [ReminderSource] = []) {
    self.reminders = reminders
    self.sources = sources
  }

  /// The index of the reminder with `id`.
  public func index(of id: String) -> Int? { reminders.firstIndex { $0.id == id } }

  public func reminder(id: String) -> Reminder? { index(of: id).map { reminders[$0] } }

  /// The list file that belongs to the config at `configPath`: `reminders.toml` beside it.
  /// (The config's own rule for a relative path: resolved against its directory.)
  public static func path(forConfig configPath: String) -> String {
    ConfigDecoder.resolve("reminders.toml", base: ConfigDecoder.directory(of: configPath))
  }

  /// Where the photos of the list at `listPath` are kept: `reminder-photos/` beside it.
  public static func photoDirectory(forList listPath: String) -> String {
    ConfigDecoder.resolve("reminder-photos", base: ConfigDecoder.directory(of: listPath))
  }
}

/// Where one reminder is written in the list file.
public struct ReminderSource: Hashable, Sendable {
  /// The `[[reminder]]` header; nil for one written as an inline table.
  public var header: SourceRange?
  /// UTF-8 byte offsets from the start of the header's line to the start of the next
  /// header's line (or the end of the file); for an inline table, the table itself.
  public var block: Range<Int>
  /// Where it starts, for messages.
  public var start: SourcePosition
  /// Whether its id is written in the file (else it was derived from the title).
  public var hasExplicitID: Bool
}

/// What `ReminderDecoder.decode` found: the list when there are no errors, and every
/// diagnostic in source order.
public struct ReminderListResult: Sendable {
  /// The path the text was read from (used in messages only).
  public var path: String
  /// nil when any diagnostic is an error.
  public var list: ReminderList?
  public var diagnostics: [Diagnostic]

  public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
  public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
  /// Every diagnostic as `path:line:col: message`.
  public var formatted: [String] { diagnostics.map { $0.formatted(path: path) } }
}
