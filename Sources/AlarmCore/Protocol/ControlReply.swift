/// Replies on the control socket: `{"ok":true, ...payload}` or
/// `{"ok":false,"error":{"code":...,"message":...}}`, one line each.

public enum ControlReply: Hashable, Sendable {
  case ok(ReplyPayload)
  case failure(ControlError)

  /// The reply to a line over the limit (the connection is closed after it).
  public static let lineTooLong = ControlReply.failure(
    ControlError(
      .lineTooLong, "line longer than \(LineFramer.defaultMaxLine) bytes; closing the connection"))

  /// The reply as one line, "\n" included (no newline inside: strings escape it).
  public func encodedLine() -> [UInt8] {
    Array((json.encoded() + "\n").utf8)
  }

  var json: JSONValue {
    switch self {
    case .failure(let e):
      var error: [String: JSONValue] = [
        "code": .string(e.code.rawValue), "message": .string(e.message),
      ]
      if !e.details.isEmpty { error["details"] = .array(e.details.map { .string($0) }) }
      return .object(["ok": .bool(false), "error": .object(error)])
    case .ok(let payload):
      var m = payload.members
      m["ok"] = .bool(true)
      return .object(m)
    }
  }

  /// Decodes a reply line (client side) to `request`. Unknown fields are
  /// ignored so that an older client understands a newer service.
  public init(line: some Collection<UInt8>, for request: ControlRequest) throws(ControlError) {
    let value: JSONValue
    do {
      value = try JSONValue.parse(line)
    } catch {
      throw ControlError(.badJSON, "reply: \(error.description)")
    }
    do {
      self = try ControlReply.decode(value, for: request)
    } catch {
      throw ControlError(.badRequest, "reply: \(error.description)")
    }
  }

  static func decode(_ value: JSONValue, for request: ControlRequest) throws(JSONFieldError)
    -> ControlReply
  {
    let top = try JSONFields(value, path: "")
    guard try top.bool("ok") else {
      let e = try JSONFields(try top.required("error"), path: "error")
      let codeText = try e.string("code", maxLength: 100)
      // An unknown code from a newer service still reads as an error.
      let code = ControlErrorCode(rawValue: codeText) ?? .internal
      let details = try e.array("details", maxCount: 10_000).enumerated().map {
        (n, v) throws(JSONFieldError) in
        try JSONFields.string(v, maxLength: 10_000, path: "error.details[\(n)]")
      }
      return .failure(
        ControlError(code, try e.string("message", maxLength: 100_000), details: details))
    }
    switch request {
    case .status: return .ok(.status(try StatusReport(top)))
    case .next: return .ok(.next(try UpcomingFiring.list(top, "next")))
    case .skip(let id), .unskip(let id):
      return .ok(
        .skip(
          SkipInfo(
            id: try top.optionalString("id") ?? id, date: try top.optionalString("date"),
            at: try top.optionalString("at"))))
    case .snooze: return .ok(.snooze(until: try top.string("until")))
    case .stop, .reload, .ring: return .ok(.empty)
    }
  }
}

/// What a successful reply carries, by request.
public enum ReplyPayload: Hashable, Sendable {
  /// stop, reload, ring: `{"ok":true}`.
  case empty
  case status(StatusReport)
  /// next: `{"ok":true,"next":[...]}`.
  case next([UpcomingFiring])
  /// skip, unskip: `{"ok":true,"id":...,"date":...,"at":...}`.
  case skip(SkipInfo)
  /// snooze: `{"ok":true,"until":...}`.
  case snooze(until: String)

  /// The reply's fields, `ok` aside (the web API answers with exactly these).
  public var members: [String: JSONValue] {
    switch self {
    case .empty: return [:]
    case .status(let s): return s.members
    case .next(let list): return ["next": .array(list.map(\.json))]
    case .skip(let s): return ["id": .string(s.id), "date": str(s.date), "at": str(s.at)]
    case .snooze(let until): return ["until": .string(until)]
    }
  }
}

private func str(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

extension SessionStatus {
  /// `sound`, `sound_problem` and `escalated`, when known.
  var soundMembers: [String: JSONValue] {
    [
      "sound": str(sound), "sound_problem": str(soundProblem),
      "escalated": escalated.map { .bool($0) } ?? .null,
    ]
  }
}

extension StatusReport {
  var members: [String: JSONValue] {
    [
      "version": .string(version),
      "config": .object([
        "path": .string(config.path), "ok": .bool(config.ok),
        "errors": .array(config.errors.map { .string($0) }),
      ]),
      "clock": .object([
        "synchronized": clockSynchronized.map { .bool($0) } ?? .null,
        "plausible": clockPlausible.map { .bool($0) } ?? .null,
        "last_jump_s": clockLastJump.map { .double(Double($0.totalMilliseconds) / 1000) } ?? .null,
        "synchronized_at": str(clockSynchronizedAt),
      ]),
      "session": session.map { s in
        .object(
          [
            "id": .string(s.id), "label": str(s.label), "state": .string(s.state.rawValue),
            "until": .string(s.until), "snoozes": .int(Int64(s.snoozes)),
            "max_snoozes": s.maxSnoozes.map { .int(Int64($0)) } ?? .null,
          ].merging(s.soundMembers) { a, _ in a })
      } ?? .null,
      "next": .array(next.map(\.json)),
      "history": .array(
        history.map { h in
          .object([
            "kind": .string(h.kind.rawValue), "id": .string(h.id), "label": str(h.label),
            "firing": .string(h.firing), "at": .string(h.at), "more": .int(Int64(h.more)),
          ])
        }),
      "inputs": .array(
        inputs.map { i in
          .object([
            "name": .string(i.name), "available": .bool(i.available), "detail": .string(i.detail),
          ])
        }),
    ]
  }

  init(_ top: JSONFields) throws(JSONFieldError) {
    let c = try JSONFields(try top.required("config"), path: "config")
    let configErrors = try c.array("errors", maxCount: 10_000).enumerated().map {
      (n, v) throws(JSONFieldError) in
      try JSONFields.string(v, maxLength: 10_000, path: "config.errors[\(n)]")
    }
    var synchronized: Bool? = nil
    var plausible: Bool? = nil
    var jump: Duration? = nil
    var synchronizedAt: String? = nil
    if let clock = top.optional("clock") {
      let f = try JSONFields(clock, path: "clock")
      if f.optional("synchronized") != nil { synchronized = try f.bool("synchronized") }
      if f.optional("plausible") != nil { plausible = try f.bool("plausible") }
      switch f.optional("last_jump_s") {
      case .int(let s)?: jump = .seconds(s)
      case .double(let s)? where s.isFinite && abs(s) < 1e12:
        jump = .milliseconds(Int64((s * 1000).rounded()))
      case nil: break
      default: throw f.fail("last_jump_s", "must be a number of seconds")
      }
      synchronizedAt = try f.optionalString("synchronized_at", maxLength: 100)
    }
    var session: SessionStatus? = nil
    if let sv = top.optional("session") {
      let s = try JSONFields(sv, path: "session")
      let stateText = try s.string("state")
      guard let state = SessionStatus.State(rawValue: stateText) else {
        throw s.fail("state", "must be \"ringing\" or \"snoozed\"")
      }
      session = SessionStatus(
        id: try s.string("id"),
        label: try s.optionalString("label", maxLength: Alarm.maxLabelBytes), state: state,
        until: try s.string("until"), snoozes: Int(try s.int("snoozes", in: 0...Int64(Int32.max))),
        maxSnoozes: try s.optionalInt("max_snoozes", in: 0...Int64(Int32.max)).map { Int($0) })
      session?.sound = try s.optionalString("sound", maxLength: 8192)
      session?.soundProblem = try s.optionalString("sound_problem", maxLength: 8192)
      if let e = s.optional("escalated"), e != .null {
        session?.escalated = try s.bool("escalated")
      }
    }
    var history: [HistoryItem] = []
    for (n, v) in try top.array("history", maxCount: 100_000).enumerated() {
      let h = try JSONFields(v, path: "history[\(n)]")
      let kindText = try h.string("kind")
      guard let kind = HistoryKind(rawValue: kindText) else { throw h.fail("kind", "unknown kind") }
      history.append(
        HistoryItem(
          kind: kind, id: try h.string("id"),
          label: try h.optionalString("label", maxLength: Alarm.maxLabelBytes),
          firing: try h.string("firing"), at: try h.string("at"),
          more: Int(try h.optionalInt("more", in: 0...Int64(Int32.max)) ?? 0)))
    }
    var inputs: [InputStatus] = []
    for (n, v) in try top.array("inputs", maxCount: 10_000).enumerated() {
      let i = try JSONFields(v, path: "inputs[\(n)]")
      inputs.append(
        InputStatus(
          name: try i.string("name"), available: try i.bool("available"),
          detail: try i.optionalString("detail", maxLength: 10_000) ?? ""))
    }
    self.init(
      version: try top.string("version"),
      config: ConfigStatus(
        path: try c.string("path", maxLength: 10_000), ok: try c.bool("ok"), errors: configErrors),
      clockSynchronized: synchronized, session: session,
      next: try UpcomingFiring.list(top, "next"), history: history, inputs: inputs)
    clockPlausible = plausible
    clockLastJump = jump
    clockSynchronizedAt = synchronizedAt
  }
}

extension UpcomingFiring {
  /// `{id, label, at, time, sound, skipped}`; label and sound null when unset.
  public var json: JSONValue {
    .object([
      "id": .string(id), "label": str(label), "at": .string(at), "time": .string(time),
      "sound": str(sound), "skipped": .array(skipped.map(\.json)),
    ])
  }

  static func list(_ top: JSONFields, _ key: String) throws(JSONFieldError) -> [UpcomingFiring] {
    var out: [UpcomingFiring] = []
    for (n, v) in try top.array(key, maxCount: 100_000).enumerated() {
      let f = try JSONFields(v, path: "\(key)[\(n)]")
      var skipped: [SkippedOccurrence] = []
      if f.optional("skipped") != nil {
        for (k, s) in try f.array("skipped", maxCount: 10_000).enumerated() {
          skipped.append(try SkippedOccurrence(JSONFields(s, path: "\(key)[\(n)].skipped[\(k)]")))
        }
      }
      out.append(
        UpcomingFiring(
          id: try f.string("id"),
          label: try f.optionalString("label", maxLength: Alarm.maxLabelBytes),
          at: try f.string("at"), time: try f.optionalString("time") ?? "",
          sound: try f.optionalString("sound", maxLength: 10_000), skipped: skipped))
    }
    return out
  }
}

extension SkippedOccurrence {
  /// Reads back what `json` wrote.
  init(_ f: JSONFields) throws(JSONFieldError) {
    let text = try f.string("date")
    guard let date = LocalDate(iso: text) else { throw f.fail("date", "must be a date") }
    let reason = try f.string("reason", maxLength: 10_000)
    switch try f.string("kind") {
    case "date": self.init(date: date, reason: .date)
    case "once": self.init(date: date, reason: .once)
    case "calendar": self.init(date: date, reason: .calendar(reason))
    case "range":
      let bounds = reason.dropFirst("vacation ".count).split(separator: ".").map(String.init)
      guard reason.hasPrefix("vacation "), bounds.count == 2,
        let from = LocalDate(iso: bounds[0]), let to = LocalDate(iso: bounds[1])
      else { throw f.fail("reason", "must be 'vacation FROM..TO'") }
      self.init(date: date, reason: .range(DateRange(from: from, to: to)))
    default: throw f.fail("kind", "must be date, range, calendar or once")
    }
  }
}
