/// A reminder as `remind list --json` and `GET /api/reminders` give it.
extension Reminder {
  /// `{id, title, notes, due, done, position, photo}`: `due` is `2026-12-04` or
  /// `2026-12-04T07:30:00` (local), `position` counts from 1, absent fields are null.
  public func json(position: Int) -> JSONValue {
    .object([
      "id": .string(id), "title": .string(title),
      "notes": notes.map(JSONValue.string) ?? .null,
      "due": due.map { .string($0.description) } ?? .null,
      "done": .bool(done), "position": .int(Int64(position)),
      "photo": photo.map(JSONValue.string) ?? .null,
    ])
  }
}

extension ReminderList {
  /// Every reminder's object in list order; open ones only unless `all`.
  public func json(all: Bool) -> JSONValue {
    .array(
      reminders.enumerated().filter { all || !$0.element.done }.map {
        $0.element.json(position: $0.offset + 1)
      })
  }
}
