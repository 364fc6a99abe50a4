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
    let value: JSONValue
    do {
      value = try JSONValue.parse(body)
    } catch {
      throw AlarmInputError("the body is not JSON: \(error)")
    }
    guard case .object(let members) = value else {
      throw AlarmInputError("the body must be a JSON object, not \(value.typeName)")
    }
    var changes = AlarmChanges()
    for (name, v) in members.sorted(by: { $0.key < $1.key }) {
      guard fields.contains(name) else {
        var message = "unknown field '\(name)'"
        if let guess = closestMatch(to: name, in: fields) {
          message += "; did you mean '\(guess)'?"
        }
        throw AlarmInputError(message + " (fields: " + fields.joined(separator: ", ") + ")")
      }
      guard let key = AlarmKey(rawValue: name), key.settableFromAPI else { continue }
      if v == .null || (v == .string("") && [.label, .sound, .date, .escalateSound].contains(key)) {
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

  private static func value(for key: AlarmKey, _ v: JSONValue) throws(AlarmInputError)
    -> AlarmValue
  {
    let name = key.rawValue
    func string() throws(AlarmInputError) -> String {
      guard case .string(let s) = v else {
        throw AlarmInputError("\(name) wants a string, not \(v.typeName)")
      }
      return s
    }
    func check(_ result: Result<AlarmValue, AlarmValueError>) throws(AlarmInputError)
      -> AlarmValue
    {
      switch result {
      case .success(let value): return value
      case .failure(let e): throw AlarmInputError("\(name) wants \(e.expectation)")
      }
    }
    switch key {
    case .time: return try check(AlarmValueText.time(try string()))
    case .days:
      if case .array(let items) = v {
        var words: [String] = []
        for item in items {
          guard case .string(let s) = item else {
            throw AlarmInputError("days wants day names like \"mon\", not \(item.typeName)")
          }
          words.append(s)
        }
        return try check(
          AlarmValueText.days(words.isEmpty ? "never" : words.joined(separator: ",")))
      }
      return try check(AlarmValueText.days(try string()))
    case .date:
      switch AlarmValueText.date(try string()) {
      case .success(let d): return .date(d)
      case .failure(let e): throw AlarmInputError("date wants \(e.expectation)")
      }
    case .label: return try check(AlarmValueText.label(try string()))
    case .sound, .escalateSound: return .string(try string())
    case .volume, .escalateVolume:
      guard case .int(let n) = v else {
        throw AlarmInputError("\(name) wants a whole number from 0 to 100, not \(v.typeName)")
      }
      return try check(AlarmValueText.volume(String(n)))
    case .snooze:
      if case .bool(let on) = v {
        guard !on else {
          throw AlarmInputError(
            "snooze wants false (off), a duration like \"9m\", or null for the default")
        }
        return .boolean(false)
      }
      return try check(AlarmValueText.duration(try string(), for: .snooze))
    case .ramp, .ringFor: return try check(AlarmValueText.duration(try string(), for: key))
    case .enabled:
      guard case .bool(let on) = v else {
        throw AlarmInputError("enabled wants true or false, not \(v.typeName)")
      }
      return .boolean(on)
    case .id: return try check(AlarmValueText.id(try string()))
    case .soundOrder: return try check(AlarmValueText.soundOrder(try string()))
    case .maxSnoozes:
      guard case .int(let n) = v else {
        throw AlarmInputError("max_snoozes wants a whole number, not \(v.typeName)")
      }
      return try check(AlarmValueText.maxSnoozes(String(n)))
    case .escalateAfter:
      if case .bool(false) = v { return .boolean(false) }
      return try check(AlarmValueText.escalateAfter(try string()))
    case .skip, .skipCalendars: throw AlarmInputError("\(name) is not settable here")
    }
  }
}

/// Why an API body was refused (a 400).
public struct AlarmInputError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
