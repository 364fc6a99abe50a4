import AlarmCore
import AlarmFiles
import AlarmPlatform

/// The reminder list in the service: the last good one (a list broken by a hand edit
/// leaves the one before in force, loudly), which due times have been said, and the one
/// waiting for a press that marks it done. Loop thread only.
final class ReminderKeeper {
  /// How late a due time may still be said: a reminder missed for longer (the service was
  /// down, the clock jumped) is only logged.
  static let lateness: Duration = .seconds(10 * 60)
  /// How long after a reminder is said a press marks it done.
  static let pressWindow: Duration = .seconds(10 * 60)

  /// What reading the file again found.
  enum Outcome: Equatable {
    case unchanged
    case applied(count: Int)
    case rejected(errors: [String])
  }

  let path: String
  let configPath: String
  private let log: Logger
  private(set) var list = ReminderList()
  /// The errors of the file on disk; empty when it is the list in force.
  private(set) var errors: [String] = []
  private var seen: [UInt8]?
  /// The due times already said (or passed before the service started), as `id@due`: a
  /// reminder is said once for each due time it is given.
  private var said: Set<String> = []
  /// The reminder said last, which a press within `pressWindow` marks done.
  private(set) var awaitingPress: (id: String, title: String, until: Instant)?

  /// Reads the list beside `configPath`; due times more than `lateness` before `now` count
  /// as said (a restart a few minutes after one still says it).
  init(configPath: String, now: Instant, zone: TimeZoneRules, log: Logger) {
    self.configPath = configPath
    path = ReminderList.path(forConfig: configPath)
    self.log = log
    switch reload() {
    case .rejected(let errors):
      for e in errors { log.error(e) }
      log.error("\(path) is unusable: no reminder will be said until it is fixed")
    case .applied(let n) where n > 0:
      log.info("reminders: \(n) in \(path)")
    default: break
    }
    for r in list.reminders {
      if let due = r.due, due.time != nil, now - due.instant(in: zone) > Self.lateness {
        said.insert(key(r))
      }
    }
  }

  /// Reads the file again; a good list replaces the one in force.
  func reload() -> Outcome {
    let bytes: [UInt8]
    switch ReminderFile.read(path) {
    case .failure(let why):
      seen = nil
      errors = [why.description]
      return .rejected(errors: errors)
    case .success(let b): bytes = b
    }
    if bytes == seen { return .unchanged }
    seen = bytes
    let result: ReminderListResult
    switch ReminderFile.decode(bytes, path: path) {
    case .failure(let why):
      errors = [why.description]
      return .rejected(errors: errors)
    case .success(let r): result = r
    }
    guard let good = result.list else {
      errors = result.errors.map { $0.formatted(path: path) }
      return .rejected(errors: errors)
    }
    errors = []
    for w in result.warnings { log.warning(w.formatted(path: path)) }
    list = good
    if let a = awaitingPress, !good.reminders.contains(where: { $0.id == a.id && !$0.done }) {
      awaitingPress = nil
    }
    return .applied(count: good.reminders.count)
  }

  /// The next due time not yet said, strictly after `now`.
  func nextDue(after now: Instant, zone: TimeZoneRules) -> Instant? {
    ReminderAgenda.nextDue(list, after: now, zone: zone, excluding: { said.contains(key($0)) })?
      .at
  }

  /// The open reminders whose due time has come by `now` and was not said yet, in list
  /// order, each marked said; those late by more than `lateness` are logged and dropped.
  func takeDue(now: Instant, zone: TimeZoneRules) -> [Reminder] {
    var due: [Reminder] = []
    for r in list.reminders where !r.done {
      guard let d = r.due, d.time != nil, !said.contains(key(r)) else { continue }
      let at = d.instant(in: zone)
      guard at <= now else { continue }
      said.insert(key(r))
      if now - at > Self.lateness {
        log.notice("reminder '\(r.id)' was due at \(d) and is not said this late")
      } else {
        due.append(r)
      }
    }
    return due
  }

  /// `r` was said at `now`: a press until `now + pressWindow` marks it done.
  func wasSaid(_ r: Reminder, now: Instant) {
    awaitingPress = (r.id, r.title, now + Self.pressWindow)
  }

  /// The reminder a press at `now` marks done, if any (taken: one press, one reminder).
  func takeAwaitingPress(now: Instant) -> (id: String, title: String)? {
    guard let a = awaitingPress else { return nil }
    awaitingPress = nil
    return now <= a.until ? (a.id, a.title) : nil
  }

  /// Marks `id` done in the file (comments kept, atomic, refused if the file changed
  /// meanwhile); nil when written, else why not.
  func markDone(_ id: String) -> String? {
    switch ReminderFile.edit(.setDone(id: id, true), path: path, configPath: configPath) {
    case .success: return nil
    case .failure(.unreadable(let why)), .failure(.unwritable(let why)): return why
    case .failure(.changedDuringEdit), .failure(.notExpected):
      return "\(path) changed while it was written; try again"
    case .failure(.refused(let error)):
      switch error {
      case .unknownReminder: return "there is no reminder '\(id)' any more"
      case .invalidList, .invalidResult: return "\(path) has errors"
      case .refused(let why): return why
      }
    }
  }

  private func key(_ r: Reminder) -> String { r.id + "@" + (r.due?.description ?? "") }
}
