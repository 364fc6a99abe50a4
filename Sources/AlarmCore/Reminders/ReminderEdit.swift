import TOML

/// A key of a `[[reminder]]` table that an edit can set.
public enum ReminderKey: String, CaseIterable, Hashable, Sendable, Comparable {
  case id, title, due, notes, done, photo

  /// The order the editor writes new keys in.
  public static func < (a: ReminderKey, b: ReminderKey) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// A value an edit writes.
public enum ReminderValue: Hashable, Sendable {
  case string(String)
  case due(ReminderDue)
  case boolean(Bool)

  /// The value as TOML text.
  public var toml: String {
    switch self {
    case .string(let s): return TOMLFormat.quoted(s)
    case .due(let d): return d.toml
    case .boolean(let b): return b ? "true" : "false"
    }
  }
}

/// The keys one edit sets and removes.
public struct ReminderChanges: Hashable, Sendable {
  public var values: [ReminderKey: ReminderValue]
  public var unset: Set<ReminderKey>

  public init(values: [ReminderKey: ReminderValue] = [:], unset: Set<ReminderKey> = []) {
    self.values = values
    self.unset = unset
  }

  public var isEmpty: Bool { values.isEmpty && unset.isEmpty }
}

/// One change to a reminder list.
public enum ReminderEdit: Hashable, Sendable {
  /// Appends a reminder (`values` must hold its `title`); without an `id` one is made
  /// from the title and written.
  case add(ReminderChanges)
  case edit(id: String, ReminderChanges)
  /// Ticks (true) or unticks (false) a reminder.
  case setDone(id: String, Bool)
  case remove(id: String)
  /// Moves a reminder to `position` (1 is the top; past the end means the bottom).
  case move(id: String, position: Int)
}

/// What an edit did.
public struct ReminderEditResult: Sendable {
  /// The whole new text (the original when nothing changed).
  public var text: String
  /// False when the list already was as asked.
  public var changed: Bool
  /// The reminder's id after the edit (for `remove`, the id it had).
  public var id: String
  /// The decoded new list.
  public var list: ReminderList
  /// The new text's warnings (errors refuse the edit).
  public var warnings: [Diagnostic]
  /// Things the user should know (an id written to keep it stable, another renamed).
  public var notes: [String]
}

/// Why an edit was refused; the file must be left as it is.
public enum ReminderEditError: Error, Sendable {
  /// The list has errors already; fix them first.
  case invalidList(ReminderListResult)
  /// No reminder has this id.
  case unknownReminder(id: String, nearMatches: [String], ids: [String])
  /// The edit would make the list invalid: the new text's diagnostics.
  case invalidResult(ReminderListResult)
  /// The edit cannot be made as asked (the reason in plain words).
  case refused(String)
}
