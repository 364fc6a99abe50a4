/// The alarm model, after the phone clocks it comes from: a time, repeat days,
/// a label, a sound, a snooze switch and an on/off switch.

/// The weekdays an alarm repeats on. Empty means it does not repeat (a one-off).
public struct DaySet: OptionSet, Hashable, Sendable, Codable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public init(_ days: some Sequence<Weekday>) {
    self.init(rawValue: days.reduce(0) { $0 | (1 << UInt8($1.rawValue - 1)) })
  }

  public static let never = DaySet([])
  public static let weekdays = DaySet([.monday, .tuesday, .wednesday, .thursday, .friday])
  public static let weekends = DaySet([.saturday, .sunday])
  public static let daily = DaySet(Weekday.allCases)

  public func contains(_ day: Weekday) -> Bool { rawValue & (1 << UInt8(day.rawValue - 1)) != 0 }

  /// The days in the set, Monday first.
  public var days: [Weekday] { Weekday.allCases.filter(contains) }
}

/// Defaults that every alarm inherits unless it sets its own (`[defaults]`).
public struct AlarmDefaults: Hashable, Sendable {
  /// Sound name or path, or a stream's URL; nil means the bundled default sound.
  public var sound: String?
  /// What rings when a stream sound cannot (`fallback_sound`); nil: the bundled sound.
  public var fallbackSound: String?
  /// How a sound folder's files take turns (ignored for a single file).
  public var soundOrder: SoundOrder = .shuffle
  /// Software volume, 0-100 %.
  public var volume: Int = 80
  /// Fade-in from silence to `volume`; zero means no fade.
  public var ramp: Duration = .seconds(30)
  /// Snooze length; nil means snooze is off.
  public var snooze: Duration? = .seconds(9 * 60)
  /// How long an alarm rings before it silences itself.
  public var ringFor: Duration = .seconds(10 * 60)
  /// iCalendar files whose all-day events are days off (`skip_calendars`), resolved paths.
  public var skipCalendars: [String] = []
  /// A ring still going after this long escalates; nil: never.
  public var escalateAfter: Duration? = nil
  /// The volume an escalating ring rises to, 0-100 %.
  public var escalateVolume: Int = 100
  /// The sound (name, path or folder) an escalating ring switches to; nil: keep the sound.
  public var escalateSound: String? = nil
  /// The most snoozes one ring session allows; nil: no limit (`max_snoozes`).
  public var maxSnoozes: Int? = nil
  /// While it rings, the time and label are said over the ducked sound (`announce`).
  public var announce = false
  /// How often the announcement is repeated while the ring goes on (`announce_every`).
  public var announceEvery: Duration = .seconds(60)

  public init() {}
}

/// An inclusive range of dates an alarm does not ring on (`skip = [{ from, to }]`).
public struct DateRange: Hashable, Sendable, CustomStringConvertible {
  public var from: LocalDate
  public var to: LocalDate

  /// The range `from...to`; callers keep `from <= to` (the config refuses the reverse).
  public init(from: LocalDate, to: LocalDate) {
    self.from = from
    self.to = to
  }

  public func contains(_ date: LocalDate) -> Bool { from <= date && date <= to }

  /// `2027-07-19..2027-07-30`.
  public var description: String { "\(from)..\(to)" }
}

/// One alarm, with every setting resolved (defaults already applied).
public struct Alarm: Hashable, Sendable {
  /// The longest label, in characters as people count them (`é` and `👍🏽` are one each).
  public static let maxLabelCharacters = 200
  /// The longest label in UTF-8 bytes: what the state file and control replies accept for
  /// a label (one character may take many bytes, e.g. a letter with combining marks).
  public static let maxLabelBytes = 1000

  /// Stable, unique identifier (given, or derived; see `AlarmID`).
  public var id: String
  /// Local wall time it rings at.
  public var time: LocalTime
  /// Repeat days; empty for a one-off.
  public var days: DaySet
  /// For a one-off on a given day.
  public var date: LocalDate?
  /// The user's label; nil means the default ("Alarm" / 鬧鐘), chosen at display time.
  public var label: String?
  /// Sound name or path, or a stream's URL; nil means the bundled default sound.
  public var sound: String?
  /// What rings when a stream sound cannot (`fallback_sound`); nil: the bundled sound.
  public var fallbackSound: String?
  /// How a sound folder's files take turns (ignored for a single file).
  public var soundOrder: SoundOrder
  public var volume: Int
  public var ramp: Duration
  /// nil: snooze is off for this alarm.
  public var snooze: Duration?
  public var ringFor: Duration
  /// A ring still going after this long escalates; nil: never.
  public var escalateAfter: Duration?
  /// The volume an escalating ring rises to, 0-100 %.
  public var escalateVolume: Int
  /// The sound an escalating ring switches to; nil: keep the sound.
  public var escalateSound: String?
  /// The most snoozes one ring session allows; nil: no limit.
  public var maxSnoozes: Int?
  /// While it rings, the time and label are said over the ducked sound (after the ramp,
  /// then every `announceEvery`), and its stop reads today's reminders.
  public var announce: Bool
  public var announceEvery: Duration
  public var enabled: Bool
  /// Dates on which it does not ring (holidays).
  public var skip: Set<LocalDate>
  /// Inclusive date ranges on which it does not ring (vacations), in file order.
  public var skipRanges: [DateRange] = []
  /// iCalendar files (resolved paths) whose all-day events are days off.
  public var skipCalendars: [String]

  public init(
    id: String, time: LocalTime, days: DaySet = .never, date: LocalDate? = nil,
    label: String? = nil, defaults: AlarmDefaults = AlarmDefaults(), enabled: Bool = true,
    skip: Set<LocalDate> = []
  ) {
    self.id = id
    self.time = time
    self.days = days
    self.date = date
    self.label = label
    self.sound = defaults.sound
    self.fallbackSound = defaults.fallbackSound
    self.soundOrder = defaults.soundOrder
    self.volume = defaults.volume
    self.ramp = defaults.ramp
    self.snooze = defaults.snooze
    self.ringFor = defaults.ringFor
    self.escalateAfter = defaults.escalateAfter
    self.escalateVolume = defaults.escalateVolume
    self.escalateSound = defaults.escalateSound
    self.maxSnoozes = defaults.maxSnoozes
    self.announce = defaults.announce
    self.announceEvery = defaults.announceEvery
    self.enabled = enabled
    self.skip = skip
    self.skipCalendars = defaults.skipCalendars
  }

  /// A one-off rings once: on `date`, or at the next occurrence of `time`
  /// after it was armed.
  public var isOneOff: Bool { days.isEmpty }

  /// Whether it rings a stream (`sound` is an http(s) URL): prepared `stream_lead` ahead.
  public var isStream: Bool { sound.map(StreamURL.isStream) ?? false }
}
