import AlarmCore

/// The reminder fields the API takes as JSON (`POST /api/reminders`,
/// `PATCH /api/reminders/ID`), through the parsers the command line uses.
public enum ReminderInput {
  /// The accepted fields: every key but `photo` (the page uploads photos), and `position`.
  public static let fields =
    ReminderKey.allCases.filter { $0 != .photo }.map(\.rawValue) + [
      "position"
    ]

  /// What a JSON object asks for: the changes, and the new position (from 1) when given.
  /// `null` (and `""` for notes) removes `due` or `notes`. Throws the message for a 400.
  public static func changes(_ body: [UInt8]) throws(AlarmInputError) -> (
    ReminderChanges, position: Int?
  ) {
    let members = try AlarmInput.object(body)
    var changes = ReminderChanges()
    var position: Int?
    for (name, v) in members.sorted(by: { $0.key < $1.key }) {
      if name == "position" {
        guard case .int(let n) = v, n >= 1, n <= Int64(Reminder.maxCount) else {
          throw AlarmInputError(
            "position wants a whole number from 1 to \(Reminder.maxCount), not \(v.typeName)")
        }
        position = Int(n)
        continue
      }
      guard fields.contains(name), let key = ReminderKey(rawValue: name) else {
        throw AlarmInput.unknownField(name, of: fields)
      }
      if v == .null || (key == .notes && v == .string("")) {
        guard key == .due || key == .notes else { throw AlarmInputError("\(name) cannot be null") }
        changes.unset.insert(key)
        continue
      }
      let text: String
      switch (key, v) {
      case (.done, .bool(let b)): text = b ? "true" : "false"
      case (.done, _): throw AlarmInputError("done wants true or false, not \(v.typeName)")
      case (_, .string(let s)): text = s
      default: throw AlarmInputError("\(name) wants a string, not \(v.typeName)")
      }
      switch key.parse(text) {
      case .success(let parsed): changes.values[key] = parsed
      case .failure(let e): throw AlarmInputError("\(name) \(e)")
      }
    }
    return (changes, position)
  }
}
