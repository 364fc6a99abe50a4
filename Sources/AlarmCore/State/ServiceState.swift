/// What the service remembers across restarts: the ring session in progress,
/// the schedule marks (skip-next, one-offs), a short history, and how far the
/// clock has been examined. Written by the service after every change
/// (`EngineAction.saveState`), read back at start-up through `StateCodec`.

/// The persistent state of the service.
public struct ServiceState: Hashable, Sendable, Codable {
  /// The state file format this code writes and accepts.
  public static let currentVersion = 1
  /// How long history entries are kept (by the instant they were recorded).
  public static let historyWindow: Duration = .seconds(12 * 3600)
  /// How long `rung` entries are kept: they are what stops an occurrence
  /// from ringing twice when the clock goes back over it, so they must
  /// outlive a clock that ran ahead by more than `historyWindow` (a bad RTC,
  /// a wrong NTP answer) and is then set back.
  public static let rungMemory: Duration = .seconds(8 * 86_400)
  /// Hard bound on history entries, whatever happens to the clock.
  public static let historyLimit = 1000

  public var version: Int
  /// Firings up to this instant have been dealt with (rung, missed or skipped).
  /// Goes back with the clock so that occurrences not yet rung can ring again.
  public var lastChecked: Instant?
  /// The latest instant ever checked. Firings at or before it that were not
  /// rung are not reported as missed a second time after the clock went back
  /// and jumped forward again (a Pi booting at 1970 or at a stale saved time).
  public var highWater: Instant?
  /// The ring session in progress, if any.
  public var session: RingSession?
  /// Skip-next and one-off marks the schedule honours.
  public var marks: ScheduleMarks
  /// What happened recently, oldest first.
  public var history: [HistoryEntry]
  /// Sound folders: the file (name inside the folder) each alarm rang last, so rotate
  /// goes on and shuffle does not repeat across restarts.
  public var lastSounds: [String: String] = [:]

  public init(
    lastChecked: Instant? = nil, highWater: Instant? = nil, session: RingSession? = nil,
    marks: ScheduleMarks = ScheduleMarks(), history: [HistoryEntry] = []
  ) {
    self.version = ServiceState.currentVersion
    self.lastChecked = lastChecked
    self.highWater = highWater
    self.session = session
    self.marks = marks
    self.history = history
  }

  /// Drops history entries recorded more than `historyWindow` before `now`,
  /// `rung` ones only after `rungMemory` (entries "in the future", after the
  /// clock went back, are kept: they remember rung occurrences), and keeps at
  /// most `historyLimit`.
  public mutating func prune(now: Instant) {
    let cutoff = now - ServiceState.historyWindow
    let rungCutoff = now - ServiceState.rungMemory
    history.removeAll { $0.at < ($0.kind == .rung ? rungCutoff : cutoff) }
    if history.count > ServiceState.historyLimit {
      history.removeFirst(history.count - ServiceState.historyLimit)
    }
  }

  /// Whether this occurrence (alarm id + firing instant) has rung already.
  public func hasRung(_ alarmID: String, at firing: Instant) -> Bool {
    if let s = session, s.alarmID == alarmID, s.firing == firing { return true }
    return history.contains { $0.kind == .rung && $0.alarmID == alarmID && $0.firing == firing }
  }
}

/// One ring session: an alarm ringing, or snoozed between rings.
///
/// Each ring period (the first, and each one after a snooze) lasts up to the
/// alarm's `ringFor`, counted from `periodStart`; then the session ends by
/// itself (auto-silence).
public struct RingSession: Hashable, Sendable, Codable {
  public var alarmID: String
  /// The occurrence that started it (for `ring ID`, the instant of the command).
  public var firing: Instant
  /// When the session began ringing.
  public var started: Instant
  /// Start of the current (or, while snoozed, the last) ring period.
  public var periodStart: Instant
  /// Set while snoozed: when it rings again.
  public var snoozeUntil: Instant?
  public var snoozeCount: Int
  /// Started by `ring ID` (a test ring): it rings a disabled alarm too, so a
  /// restart must not stop it for being disabled.
  public var isTest: Bool

  public init(
    alarmID: String, firing: Instant, started: Instant, periodStart: Instant,
    snoozeUntil: Instant? = nil, snoozeCount: Int = 0, isTest: Bool = false
  ) {
    self.alarmID = alarmID
    self.firing = firing
    self.started = started
    self.periodStart = periodStart
    self.snoozeUntil = snoozeUntil
    self.snoozeCount = snoozeCount
    self.isTest = isTest
  }

  public var isSnoozed: Bool { snoozeUntil != nil }
}

/// What a history entry records.
public enum HistoryKind: String, Hashable, Sendable, Codable, CaseIterable {
  /// A session started ringing (also marks the occurrence as rung).
  case rung
  /// An occurrence that could not ring in time (service down, clock jump).
  case missed
  /// A session taken over by another alarm that fired during it.
  case replaced
  case snoozed
  /// Stopped by the user, or because its alarm was removed or disabled.
  case stopped
  /// Auto-silenced after `ringFor`.
  case silenced
}

/// One thing that happened to an alarm occurrence.
public struct HistoryEntry: Hashable, Sendable, Codable {
  public var kind: HistoryKind
  public var alarmID: String
  /// The alarm's label when it happened (nil: the default label).
  public var label: String?
  /// The occurrence concerned.
  public var firing: Instant
  /// When it was recorded.
  public var at: Instant
  /// For `missed`: how many earlier missed occurrences of the same alarm this
  /// entry stands for as well (a long outage is summarised, not listed).
  public var more: Int

  public init(
    kind: HistoryKind, alarmID: String, label: String?, firing: Instant, at: Instant,
    more: Int = 0
  ) {
    self.kind = kind
    self.alarmID = alarmID
    self.label = label
    self.firing = firing
    self.at = at
    self.more = more
  }
}
