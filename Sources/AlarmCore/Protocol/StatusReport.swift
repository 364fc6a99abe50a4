/// The payloads of successful replies. Instants arrive preformatted (ISO 8601
/// with the local offset, e.g. `2026-12-03T06:45:00+01:00`): the time-zone
/// code formats them, this layer only carries them.

/// The `status` reply.
public struct StatusReport: Hashable, Sendable {
  /// The service's version, e.g. `0.1.0`.
  public var version: String
  public var config: ConfigStatus
  /// Whether the system clock is synchronised (NTP); nil when unknown
  /// (no systemd-timesyncd).
  public var clockSynchronized: Bool?
  /// false: the clock reads earlier than this build's release (`ClockTrust`); nil:
  /// not said (an older service).
  public var clockPlausible: Bool? = nil
  /// How far the clock last jumped when it was set, since the service started.
  public var clockLastJump: Duration? = nil
  /// When the service saw the clock become synchronised (ISO 8601).
  public var clockSynchronizedAt: String? = nil
  public var session: SessionStatus?
  public var next: [UpcomingFiring]
  /// Rung, missed and replaced alarms of the last 12 hours, oldest first.
  public var history: [HistoryItem]
  public var inputs: [InputStatus]

  public init(
    version: String, config: ConfigStatus, clockSynchronized: Bool?, session: SessionStatus?,
    next: [UpcomingFiring], history: [HistoryItem], inputs: [InputStatus]
  ) {
    self.version = version
    self.config = config
    self.clockSynchronized = clockSynchronized
    self.session = session
    self.next = next
    self.history = history
    self.inputs = inputs
  }
}

/// The config in force and whether the file on disk is valid.
public struct ConfigStatus: Hashable, Sendable {
  public var path: String
  /// false: the file has errors; the last good config stays in force.
  public var ok: Bool
  /// `path:line:col: message`, one per error.
  public var errors: [String]

  /// `errors` beyond `maxErrors` are summed up in one last line.
  public init(path: String, ok: Bool, errors: [String] = []) {
    self.path = path
    self.ok = ok
    self.errors = Self.capped(errors)
  }

  /// The most config errors a reply carries: a file with thousands of bad alarms must
  /// not make the reply outgrow what the server queues for a client (1 MiB).
  public static let maxErrors = 100

  /// The first `maxErrors - 1` errors and a line saying how many more there are
  /// (`alarmclock check` lists them all); unchanged when there are at most `maxErrors`.
  public static func capped(_ errors: [String]) -> [String] {
    guard errors.count > maxErrors else { return errors }
    let more = errors.count - (maxErrors - 1)
    return errors.prefix(maxErrors - 1)
      + ["... and \(more) more errors ('alarmclock check' lists them all)"]
  }
}

public struct SessionStatus: Hashable, Sendable {
  public enum State: String, Hashable, Sendable {
    case ringing, snoozed
  }

  public var id: String
  public var label: String?
  public var state: State
  /// Ringing: when it silences itself; snoozed: when it rings again.
  public var until: String
  public var snoozes: Int
  /// The sound file this ring plays (for a sound folder, the file picked), if known.
  public var sound: String? = nil
  /// Why the fallback tone rings instead of the alarm's sound, if it does.
  public var soundProblem: String? = nil
  /// Whether the ring has escalated (`escalate_after`); nil when the alarm has no escalation.
  public var escalated: Bool? = nil
  /// The alarm's `max_snoozes`; nil: no limit.
  public var maxSnoozes: Int?

  public init(
    id: String, label: String?, state: State, until: String, snoozes: Int,
    maxSnoozes: Int? = nil
  ) {
    self.id = id
    self.label = label
    self.state = state
    self.until = until
    self.snoozes = snoozes
    self.maxSnoozes = maxSnoozes
  }

  /// Whether a snooze press is refused now: the session used up `max_snoozes`.
  public var snoozeLimitReached: Bool { maxSnoozes.map { snoozes >= $0 } ?? false }
}

/// One upcoming firing, as `next` and `status` report it (`UpcomingFiring.list` makes them).
public struct UpcomingFiring: Hashable, Sendable {
  public var id: String
  public var label: String?
  /// ISO 8601 with its UTC offset.
  public var at: String
  /// The alarm's wall time (`06:45`); empty when an older service did not say.
  public var time: String
  /// The alarm's `sound`, when it names one.
  public var sound: String?
  /// Its alarm's occurrences skipped before it (from the previous one listed).
  public var skipped: [SkippedOccurrence]

  public init(
    id: String, label: String?, at: String, time: String = "", sound: String? = nil,
    skipped: [SkippedOccurrence] = []
  ) {
    self.id = id
    self.label = label
    self.at = at
    self.time = time
    self.sound = sound
    self.skipped = skipped
  }
}

public struct HistoryItem: Hashable, Sendable {
  public var kind: HistoryKind
  public var id: String
  public var label: String?
  /// The occurrence concerned.
  public var firing: String
  /// When it happened.
  public var at: String
  /// For missed: how many earlier missed occurrences this one stands for too.
  public var more: Int

  public init(
    kind: HistoryKind, id: String, label: String?, firing: String, at: String, more: Int = 0
  ) {
    self.kind = kind
    self.id = id
    self.label = label
    self.firing = firing
    self.at = at
    self.more = more
  }
}

/// An input source (GPIO button, evdev device, terminal) and whether it works.
public struct InputStatus: Hashable, Sendable {
  public var name: String
  public var available: Bool
  public var detail: String

  public init(name: String, available: Bool, detail: String) {
    self.name = name
    self.available = available
    self.detail = detail
  }
}

/// `skip` and `unskip` replies.
public struct SkipInfo: Hashable, Sendable {
  public var id: String
  /// skip: the local date skipped; unskip: nil.
  public var date: String?
  /// skip: the occurrence skipped; unskip: the next occurrence (nil if none).
  public var at: String?

  public init(id: String, date: String?, at: String?) {
    self.id = id
    self.date = date
    self.at = at
  }
}
