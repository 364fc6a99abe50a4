/// What the ring engine asks the service to do. The engine decides; the
/// service performs (audio, hook processes, logging, the state file).

// Hook events are `HookEvent` (Config/Config.swift, `[hooks]`). The engine
// emits preRing, ring (each ring period: the first, and each after a
// snooze), snooze, stop (the session ends: stopped, auto-silenced, or its
// alarm removed; not when another alarm takes the session over: that one's
// ring follows) and missed. idlePress is the service's, not the engine's.

/// One hook to run, with what its environment needs.
public struct HookCall: Hashable, Sendable {
  public var event: HookEvent
  public var alarmID: String
  /// The alarm's label (nil: the default label).
  public var label: String?
  /// The occurrence concerned.
  public var firing: Instant

  public init(event: HookEvent, alarmID: String, label: String?, firing: Instant) {
    self.event = event
    self.alarmID = alarmID
    self.label = label
    self.firing = firing
  }
}

/// Log severities, with their syslog priority numbers. The same type as the
/// platform logger (AlarmPlatform/System/Logger.swift) writes, defined here in the
/// lowest layer so the engine, the audio code and the logger share it.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
  case error = 3
  case warning = 4
  case notice = 5
  case info = 6
  case debug = 7

  /// The syslog priority journald reads from a `<N>` line prefix.
  public var syslogPriority: Int { rawValue }

  public var description: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .notice: "notice"
    case .info: "info"
    case .debug: "debug"
    }
  }

  /// Parses `error`, `warning`, `notice`, `info`, `debug`.
  public init?(name: String) {
    guard let level = LogLevel.allCases.first(where: { $0.description == name }) else {
      return nil
    }
    self = level
  }

  /// More severe levels compare smaller, as in syslog.
  public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

public enum EngineAction: Hashable, Sendable {
  /// Start the alarm's sound (looped, fading in over `alarm.ramp`); the ring
  /// period ends after `remaining` (the engine also says `.stopSound` then).
  /// `resumed`: continuing a ring interrupted by a restart.
  case startSound(Alarm, remaining: Duration, resumed: Bool)
  case stopSound
  case hook(HookCall)
  case log(LogLevel, String)
  /// The state changed: write `engine.state` (already pruned).
  case saveState
}

/// What a command did: ok or an error for the protocol reply, plus the
/// actions to perform either way.
public struct CommandResult: Hashable, Sendable {
  public var actions: [EngineAction]
  /// nil: the command succeeded.
  public var error: ControlError?
  /// skip/unskip: the occurrence concerned (unskip: the next one, if any).
  public var firing: Firing?
  /// snooze: when it rings again.
  public var until: Instant?

  public init(
    actions: [EngineAction], error: ControlError? = nil, firing: Firing? = nil,
    until: Instant? = nil
  ) {
    self.actions = actions
    self.error = error
    self.firing = firing
    self.until = until
  }

  public var isOK: Bool { error == nil }
}

/// Tunables of the engine, given by the service from the config.
public struct EngineOptions: Hashable, Sendable {
  /// How long before a firing the `pre_ring` hook runs; nil: no pre-ring.
  public var preRingLead: Duration?
  /// At most this many missed entries per alarm per catch-up; earlier ones
  /// are counted in the oldest kept entry's `more`.
  public var maxMissedPerAlarm: Int
  /// Catch-up queries the firing source in chunks of this length.
  public var scanChunk: Duration
  /// A forward jump is examined at most this far back from now.
  public var maxScan: Duration

  public init(
    preRingLead: Duration? = nil, maxMissedPerAlarm: Int = 3,
    scanChunk: Duration = .seconds(86_400), maxScan: Duration = .seconds(62 * 86_400)
  ) {
    self.preRingLead = preRingLead
    self.maxMissedPerAlarm = max(1, maxMissedPerAlarm)
    self.scanChunk = max(.seconds(60), scanChunk)
    self.maxScan = max(.seconds(60), maxScan)
  }
}
