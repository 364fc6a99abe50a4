import AlarmCore

/// The alarm fields the API takes as JSON (`POST /api/alarms`, `PATCH /api/alarms/ID`),
/// turned into the config editor's changes with the CLI's validation and messages.
public enum AlarmInput {
  /// The accepted fields (`AlarmKey.settableFromAPI`).
  public static let fields = AlarmKey.apiKeys.map(\.rawValue)

  /// The changes a JSON object asks for; `null` (and `""` for label, sound, date and
  /// escalate_sound) removes a key so the alarm inherits `[defaults]` again. Throws the
  /// message for a 400.
  public static func changes(_ body: [UInt8]) throws(AlarmInputError) -> AlarmChanges {
    let members = try object(body)
    var changes = AlarmChanges()
    for (name, v) in members.sorted(by: { $0.key < $1.key }) {
      guard fields.contains(name) else { throw unknownField(name, of: fields) }
      guard let key = AlarmKey(rawValue: name), key.settableFromAPI else { continue }
      if v == .null
        || (v == .string("")
          && [.label, .sound, .fallbackSound, .date, .escalateSound].contains(key))
      {
        guard key != .time, key != .id, key != .enabled else {
          throw AlarmInputError("\(name) cannot be null")
        }
        changes.unset.insert(key)
        continue
      }
      changes.values[key] = try Self.value(for: key, v)
    }
    return changes
  }

  /// The 400 for a field the API does not take, with a suggestion and the fields it does.
  static func unknownField(_ name: String, of fields: [String]) -> AlarmInputError {
    var message = "unknown field '\(name)'"
    if let guess = closestMatch(to: name, in: fields) { message += "; did you mean '\(guess)'?" }
    return AlarmInputError(message + " (fields: " + fields.joined(separator: ", ") + ")")
  }

  /// The members of a body that must be one JSON object (the API's edits), or the 400's
  /// message.
  static func object(_ body: [UInt8]) throws(AlarmInputError) -> [String: JSONValue] {
    let value: JSONValue
    do {
      value = try JSONValue.parse(body)
    } catch {
      throw AlarmInputError("the body is not JSON: \(error)")
    }
    guard case .object(let members) = value else {
      throw AlarmInputError("the body must be a JSON object, not \(value.typeName)")
    }
    return members
  }

  /// A JSON value as the key's kind takes it: strings through the key's parser (the CLI's),
  /// numbers for volumes and counts, `false` for "off", arrays for days and lists.
  private static func value(for key: AlarmKey, _ v: JSONValue) throws(AlarmInputError)
    -> AlarmValue
  {
    let name = key.rawValue
    func parsed(_ text: String) throws(AlarmInputError) -> AlarmValue {
      switch key.parse(text) {
      case .success(let value): return value
      case .failure(let e): throw AlarmInputError("\(name) wants \(e.expectation)")
      }
    }
    /// Each string of an array, or the message naming what each should be.
    func strings(_ items: [JSONValue], _ what: String) throws(AlarmInputError) -> [String] {
      var out: [String] = []
      for item in items {
        guard case .string(let s) = item else {
          throw AlarmInputError("\(name) wants \(what), not \(item.typeName)")
        }
        out.append(s)
      }
      return out
    }
    switch (key.kind, v) {
    case (.days, .array(let items)):
      let words = try strings(items, "day names like \"mon\"")
      return try parsed(words.isEmpty ? "never" : words.joined(separator: ","))
    case (.percent, .int(let n)), (.count, .int(let n)):
      return try parsed(String(n))
    case (.percent, _), (.count, _):
      let range = key.kind == .percent ? " from 0 to 100" : ""
      throw AlarmInputError("\(name) wants a whole number\(range), not \(v.typeName)")
    case (.onOff, .bool(let on)):
      return .boolean(on)
    case (.onOff, _):
      throw AlarmInputError("\(name) wants true or false, not \(v.typeName)")
    case (.duration, .bool(false)) where key.negation != nil, (.durationOrOff, .bool(false)):
      return .boolean(false)
    case (.duration, .bool) where key.negation != nil:
      throw AlarmInputError(
        "\(name) wants false (off), a duration like \"9m\", or null for the default")
    case (.skipList, .array(let items)):
      var entries: [String] = []
      for item in items {
        // A range also as the file writes it: {"from": "2027-07-19", "to": "2027-07-30"}.
        if case .object(let bounds) = item, bounds.count == 2,
          case .string(let from)? = bounds["from"], case .string(let to)? = bounds["to"]
        {
          entries.append(from + ".." + to)
        } else {
          entries += try strings([item], "dates like \"2027-12-24\" and ranges")
        }
      }
      return try parsed(entries.joined(separator: "\n"))
    case (.pathList, .array(let items)):
      let paths = try strings(items, "paths of iCalendar files")
      guard !paths.contains(where: { $0.isEmpty || $0.contains("\n") || $0 == "none" }) else {
        throw AlarmInputError("\(name) wants paths of iCalendar files, one per string")
      }
      return paths.isEmpty ? .strings([]) : try parsed(paths.joined(separator: "\n"))
    case (.skipList, _), (.pathList, _):
      throw AlarmInputError("\(name) wants an array, not \(v.typeName)")
    case (_, .string(let text)):
      return try parsed(text)
    default:
      throw AlarmInputError("\(name) wants a string, not \(v.typeName)")
    }
  }
}

/// Why an API body was refused (a 400).
public struct AlarmInputError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
