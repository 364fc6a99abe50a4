/// Typed, path-aware access to the members of a JSON object, shared by the
/// state file and control protocol decoders so that every complaint names
/// the field it is about ("session.snooze_count: must be ...").

struct JSONFieldError: Error, Hashable, Sendable, CustomStringConvertible {
  var path: String
  var reason: String
  var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

struct JSONFields {
  let members: [String: JSONValue]
  let path: String

  init(_ value: JSONValue, path: String, what: String = "an object") throws(JSONFieldError) {
    guard case .object(let m) = value else {
      throw JSONFieldError(path: path, reason: "must be \(what), not \(value.typeName)")
    }
    self.members = m
    self.path = path
  }

  func sub(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func fail(_ key: String, _ reason: String) -> JSONFieldError {
    JSONFieldError(path: sub(key), reason: reason)
  }

  /// Rejects members other than `known` (typos, corruption).
  func onlyKnown(_ known: Set<String>) throws(JSONFieldError) {
    if let extra = members.keys.sorted().first(where: { !known.contains($0) }) {
      throw fail(printable(extra), "unknown field")
    }
  }

  /// The member, nil when absent or null.
  func optional(_ key: String) -> JSONValue? {
    guard let v = members[key], v != .null else { return nil }
    return v
  }

  func required(_ key: String) throws(JSONFieldError) -> JSONValue {
    guard let v = optional(key) else { throw fail(key, "is missing") }
    return v
  }

  func int(_ key: String, in range: ClosedRange<Int64>) throws(JSONFieldError) -> Int64 {
    try JSONFields.int(try required(key), range: range, path: sub(key))
  }

  func optionalInt(_ key: String, in range: ClosedRange<Int64>) throws(JSONFieldError) -> Int64? {
    guard let v = optional(key) else { return nil }
    return try JSONFields.int(v, range: range, path: sub(key))
  }

  static func int(_ v: JSONValue, range: ClosedRange<Int64>, path: String) throws(JSONFieldError)
    -> Int64
  {
    let reason = "must be an integer from \(range.lowerBound) to \(range.upperBound)"
    switch v {
    case .int(let i) where range.contains(i): return i
    case .int, .double: throw JSONFieldError(path: path, reason: reason)
    default: throw JSONFieldError(path: path, reason: "\(reason), not \(v.typeName)")
    }
  }

  func string(_ key: String, maxLength: Int = 1000) throws(JSONFieldError) -> String {
    try JSONFields.string(try required(key), maxLength: maxLength, path: sub(key))
  }

  func optionalString(_ key: String, maxLength: Int = 1000) throws(JSONFieldError) -> String? {
    guard let v = optional(key) else { return nil }
    return try JSONFields.string(v, maxLength: maxLength, path: sub(key))
  }

  static func string(_ v: JSONValue, maxLength: Int, path: String) throws(JSONFieldError) -> String
  {
    guard case .string(let s) = v else {
      throw JSONFieldError(path: path, reason: "must be a string, not \(v.typeName)")
    }
    guard s.utf8.count <= maxLength else {
      throw JSONFieldError(path: path, reason: "is longer than \(maxLength) bytes")
    }
    return s
  }

  func bool(_ key: String) throws(JSONFieldError) -> Bool {
    let v = try required(key)
    guard case .bool(let b) = v else {
      throw fail(key, "must be true or false, not \(v.typeName)")
    }
    return b
  }

  func array(_ key: String, maxCount: Int) throws(JSONFieldError) -> [JSONValue] {
    guard let v = optional(key) else { return [] }
    guard case .array(let items) = v else {
      throw fail(key, "must be an array, not \(v.typeName)")
    }
    guard items.count <= maxCount else { throw fail(key, "has more than \(maxCount) entries") }
    return items
  }

  func object(_ key: String, maxCount: Int) throws(JSONFieldError) -> [String: JSONValue] {
    guard let v = optional(key) else { return [:] }
    guard case .object(let m) = v else {
      throw fail(key, "must be an object, not \(v.typeName)")
    }
    guard m.count <= maxCount else { throw fail(key, "has more than \(maxCount) entries") }
    return m
  }
}

/// Alarm ids as the state file and the protocol accept them: 1 to 64
/// characters, letters and digits of any script plus `-`, `_` and `.`.
/// Anything else (spaces, quotes, slashes, control characters) is corruption
/// or a hostile client.
public func isPlausibleAlarmID(_ id: String) -> Bool {
  guard !id.isEmpty, id.count <= 64, id.utf8.count <= 256 else { return false }
  return id.unicodeScalars.allSatisfy { s in
    s == "-" || s == "_" || s == "." || s.properties.isAlphabetic
      || s.properties.numericType != nil
  }
}
