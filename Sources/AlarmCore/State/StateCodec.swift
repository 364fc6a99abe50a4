/// The state file: JSON, keys sorted, indented, instants as Unix seconds: an
/// integer, or a number with up to three decimals when the instant has
/// milliseconds (a snooze end counted from a press). Files of older builds,
/// integers only, load unchanged.
/// Decoding is strict: anything unexpected is an error the service reports
/// when it moves the file aside, never a crash.
///
///     {
///       "high_water": 1764655200,
///       "history": [{"alarm": "work", "at": 1764655200, "firing": 1764655200,
///                    "kind": "rung", "label": "Work", "more": 0}],
///       "last_checked": 1764655200,
///       "one_offs": {"nap": {"armed_at": 1764650000, "done_at": null,
///                            "fingerprint": "14:30|-"}},
///       "session": {"alarm": "work", "firing": 1764655200, "period_start": 1764655200,
///                   "snooze_count": 0, "snooze_until": null, "started": 1764655200},
///       "skip_next": {"gym": "2026-12-03"},
///       "version": 1
///     }

/// Why a state file was rejected.
public struct StateDecodeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Human-readable, e.g. `session.snooze_count: must be an integer from 0 to 100000`.
  public var message: String
  public var description: String { "state file rejected: \(message)" }
}

public enum StateCodec {
  /// Files larger than this are rejected unread (the service writes far less).
  public static let maxFileSize = 4 << 20
  /// Instants accepted: the Unix epoch through the end of year 9999.
  static let instantRange: ClosedRange<Int64> = 0...253_402_300_799
  static let maxSnoozes: Int64 = 100_000
  static let maxMarks = 100_000

  /// The state as UTF-8 JSON, ending with a newline. Same state, same bytes.
  public static func encode(_ state: ServiceState) -> [UInt8] {
    Array((json(state).encoded(pretty: true) + "\n").utf8)
  }

  /// Reads a state file; throws `StateDecodeError` for anything malformed.
  public static func decode(_ bytes: [UInt8]) throws(StateDecodeError) -> ServiceState {
    guard bytes.count <= maxFileSize else {
      throw StateDecodeError(message: "larger than \(maxFileSize) bytes")
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes)
    } catch {
      throw StateDecodeError(message: error.description)
    }
    do {
      return try state(from: value)
    } catch {
      throw StateDecodeError(message: error.description)
    }
  }

  static func json(_ s: ServiceState) -> JSONValue {
    func instant(_ i: Instant?) -> JSONValue { i.map(instantValue) ?? .null }
    var top: [String: JSONValue] = [
      "version": .int(Int64(s.version)),
      "last_checked": instant(s.lastChecked),
      "high_water": instant(s.highWater),
      "skip_next": .object(s.marks.skipNext.mapValues { .string($0.description) }),
      "one_offs": .object(
        s.marks.oneOffs.mapValues { m in
          .object([
            "armed_at": instant(m.armedAt), "done_at": instant(m.doneAt),
            "fingerprint": .string(m.fingerprint),
          ])
        }),
      "history": .array(
        s.history.map { h in
          .object([
            "kind": .string(h.kind.rawValue), "alarm": .string(h.alarmID),
            "label": h.label.map { .string($0) } ?? .null, "firing": instant(h.firing),
            "at": instant(h.at), "more": .int(Int64(h.more)),
          ])
        }),
    ]
    if !s.lastSounds.isEmpty {
      top["last_sounds"] = .object(s.lastSounds.mapValues { .string($0) })
    }
    top["session"] =
      s.session.map { r in
        var o: [String: JSONValue] = [
          "alarm": .string(r.alarmID), "firing": instant(r.firing),
          "started": instant(r.started), "period_start": instant(r.periodStart),
          "snooze_until": instant(r.snoozeUntil), "snooze_count": .int(Int64(r.snoozeCount)),
        ]
        // Written only when set, so a file without a test ring stays readable by older builds.
        if r.isTest { o["test"] = .bool(true) }
        return .object(o)
      } ?? .null
    return .object(top)
  }

  static func state(from value: JSONValue) throws(JSONFieldError) -> ServiceState {
    let top = try JSONFields(value, path: "", what: "a JSON object")
    let version = try top.int("version", in: 0...Int64(Int32.max))
    guard version == Int64(ServiceState.currentVersion) else {
      throw top.fail(
        "version",
        "unsupported version \(version) (this build reads \(ServiceState.currentVersion))")
    }
    try top.onlyKnown([
      "version", "last_checked", "high_water", "session", "skip_next", "one_offs", "history",
      "last_sounds",
    ])
    var state = ServiceState()
    state.lastChecked = try top.optionalInstant("last_checked")
    state.highWater = try top.optionalInstant("high_water")

    if let sv = top.optional("session") {
      let s = try JSONFields(sv, path: "session")
      try s.onlyKnown([
        "alarm", "firing", "started", "period_start", "snooze_until", "snooze_count", "test",
      ])
      state.session = RingSession(
        alarmID: try alarmID(s, "alarm"),
        firing: try s.instant("firing"),
        started: try s.instant("started"),
        periodStart: try s.instant("period_start"),
        snoozeUntil: try s.optionalInstant("snooze_until"),
        snoozeCount: Int(try s.int("snooze_count", in: 0...maxSnoozes)))
      if let t = s.optional("test"), t != .null { state.session?.isTest = try s.bool("test") }
    }

    for (id, v) in try top.object("skip_next", maxCount: maxMarks) {
      let path = top.sub("skip_next")
      guard isPlausibleAlarmID(id) else {
        throw JSONFieldError(path: path, reason: "bad alarm id \(singleQuoted(id))")
      }
      let text = try JSONFields.string(v, maxLength: 10, path: "\(path).\(id)")
      guard let date = LocalDate(iso: text) else {
        throw JSONFieldError(path: "\(path).\(id)", reason: "must be a date YYYY-MM-DD")
      }
      state.marks.skipNext[id] = date
    }

    for (id, v) in try top.object("one_offs", maxCount: maxMarks) {
      guard isPlausibleAlarmID(id) else {
        throw JSONFieldError(path: top.sub("one_offs"), reason: "bad alarm id \(singleQuoted(id))")
      }
      let m = try JSONFields(v, path: "one_offs.\(id)")
      try m.onlyKnown(["armed_at", "done_at", "fingerprint"])
      state.marks.oneOffs[id] = OneOffMark(
        armedAt: try m.instant("armed_at"),
        doneAt: try m.optionalInstant("done_at"),
        fingerprint: try m.string("fingerprint", maxLength: 200))
    }

    for (id, v) in try top.object("last_sounds", maxCount: maxMarks) {
      let path = top.sub("last_sounds")
      guard isPlausibleAlarmID(id) else {
        throw JSONFieldError(path: path, reason: "bad alarm id \(singleQuoted(id))")
      }
      state.lastSounds[id] = try JSONFields.string(v, maxLength: 4096, path: "\(path).\(id)")
    }

    for (n, v) in try top.array("history", maxCount: ServiceState.historyLimit).enumerated() {
      let h = try JSONFields(v, path: "history[\(n)]")
      try h.onlyKnown(["kind", "alarm", "label", "firing", "at", "more"])
      let kindText = try h.string("kind", maxLength: 20)
      guard let kind = HistoryKind(rawValue: kindText) else {
        throw h.fail("kind", "unknown kind \(singleQuoted(kindText))")
      }
      state.history.append(
        HistoryEntry(
          kind: kind, alarmID: try alarmID(h, "alarm"),
          label: try h.optionalString("label", maxLength: Alarm.maxLabelBytes),
          firing: try h.instant("firing"),
          at: try h.instant("at"),
          more: Int(try h.optionalInt("more", in: 0...Int64(Int32.max)) ?? 0)))
    }
    return state
  }

  /// An instant in the file: whole seconds as an integer (what older builds wrote and
  /// read), else seconds with the milliseconds as three decimals.
  static func instantValue(_ i: Instant) -> JSONValue {
    i.milliseconds == 0 ? .int(i.seconds) : .double(Double(i.totalMilliseconds) / 1000)
  }

  /// Reads an instant written by `instantValue`: an integer, or a number rounded to the
  /// millisecond, within `instantRange`.
  static func instant(_ v: JSONValue, path: String) throws(JSONFieldError) -> Instant {
    switch v {
    case .double(let d) where d.isFinite:
      let ms = (d * 1000).rounded()
      let bounds = Double(instantRange.lowerBound) * 1000...Double(instantRange.upperBound) * 1000
      guard bounds.contains(ms) else { break }
      return Instant(totalMilliseconds: Int64(ms))
    case .double: break
    default: return Instant(seconds: try JSONFields.int(v, range: instantRange, path: path))
    }
    throw JSONFieldError(
      path: path,
      reason:
        "must be a number of seconds from \(instantRange.lowerBound) to \(instantRange.upperBound)")
  }

  private static func alarmID(_ f: JSONFields, _ key: String) throws(JSONFieldError) -> String {
    let id = try f.string(key, maxLength: 256)
    guard isPlausibleAlarmID(id) else { throw f.fail(key, "bad alarm id \(singleQuoted(id))") }
    return id
  }
}

/// `'text'` for messages, with control characters escaped and long text cut.
func singleQuoted(_ text: String) -> String { "'" + printable(text) + "'" }

/// Untrusted text for a one-line message: control characters escaped (a
/// newline from a corrupt file must not start a fake log line), cut at 80.
func printable(_ text: String) -> String {
  var out = ""
  for s in text.unicodeScalars.prefix(80) {
    out += s.properties.generalCategory == .control ? s.escaped(asASCII: true) : String(s)
  }
  return out + (text.unicodeScalars.count > 80 ? "..." : "")
}

extension JSONFields {
  /// A required instant of the state file (`StateCodec.instant`).
  func instant(_ key: String) throws(JSONFieldError) -> Instant {
    try StateCodec.instant(try required(key), path: sub(key))
  }

  /// An instant that may be absent or null.
  func optionalInstant(_ key: String) throws(JSONFieldError) -> Instant? {
    guard let v = optional(key) else { return nil }
    return try StateCodec.instant(v, path: sub(key))
  }
}
