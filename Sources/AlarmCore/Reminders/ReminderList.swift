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
  public static func path(forConfig configPath: String) -> String {
    directory(of: configPath) + "reminders.toml"
  }

  /// Where the photos of the list at `listPath` are kept: `reminder-photos/` beside it.
  public static func photoDirectory(forList listPath: String) -> String {
    directory(of: listPath) + "reminder-photos"
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[...slash])
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
