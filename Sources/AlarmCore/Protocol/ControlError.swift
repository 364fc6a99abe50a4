/// The control protocol's stable error codes (docs/protocol.md). Clients and
/// scripts match on `rawValue`; never rename one.
public enum ControlErrorCode: String, Hashable, Sendable, CaseIterable {
  /// The line is not valid JSON (or not UTF-8).
  case badJSON = "bad-json"
  /// Valid JSON but not a valid request (not an object, missing or wrong field).
  case badRequest = "bad-request"
  /// `cmd` names no command.
  case unknownCommand = "unknown-command"
  /// A line over 64 KiB; the service closes the connection after this reply.
  case lineTooLong = "line-too-long"
  /// No alarm with the given id.
  case unknownAlarm = "unknown-alarm"
  /// snooze/stop while no alarm rings (snooze also while already snoozed).
  case notRinging = "not-ringing"
  /// Snooze is turned off for the ringing alarm; it keeps ringing.
  case snoozeOff = "snooze-off"
  /// The ringing alarm was snoozed `max_snoozes` times already (or allows none); it
  /// keeps ringing until stopped.
  case snoozeLimit = "snooze-limit"
  /// skip: the alarm has no upcoming occurrence (disabled, or a one-off done).
  case nothingToSkip = "nothing-to-skip"
  /// unskip: no occurrence of the alarm is skipped.
  case notSkipped = "not-skipped"
  /// reload: the config file has errors; the last good config stays in force.
  case configInvalid = "config-invalid"
  /// A fault inside the service; the message says what.
  case `internal` = "internal"
}

/// An error reply: a code for programs, a sentence for people, and for
/// `config-invalid` the individual `path:line:col: message` errors.
public struct ControlError: Error, Hashable, Sendable, CustomStringConvertible {
  public var code: ControlErrorCode
  public var message: String
  public var details: [String]

  /// `details` beyond `ConfigStatus.maxErrors` are summed up in one last line.
  public init(_ code: ControlErrorCode, _ message: String, details: [String] = []) {
    self.code = code
    self.message = message
    self.details = ConfigStatus.capped(details)
  }

  public var description: String { "\(code.rawValue): \(message)" }
}

/// The closest of `candidates` to `word` when it is a plausible typo (edit
/// distance at most 2, or 1 for short words), for "did you mean" hints.
public func closestMatch(to word: String, in candidates: some Sequence<String>) -> String? {
  let w = Array(word.lowercased().prefix(64))
  var best: (String, Int)? = nil
  for c in candidates {
    let d = editDistance(w, Array(c.lowercased().prefix(64)))
    if d > 0 || c != word, best == nil || d < best!.1 || (d == best!.1 && c < best!.0) {
      best = (c, d)
    }
  }
  guard let (match, d) = best else { return nil }
  return d <= (w.count <= 3 ? 1 : 2) ? match : nil
}

private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var prev = Array(0...b.count)
  var cur = prev
  for i in 1...a.count {
    cur[0] = i
    for j in 1...b.count {
      let sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      cur[j] = min(sub, prev[j] + 1, cur[j - 1] + 1)
    }
    swap(&prev, &cur)
  }
  return prev[b.count]
}
