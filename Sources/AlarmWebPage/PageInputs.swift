import AlarmCore

/// What every page needs from the request: its language and the session's CSRF token
/// (put into each POST form as the hidden field `csrf`).
public struct PageContext: Hashable, Sendable {
  /// The page's language (from `Accept-Language`).
  public var language: WebLanguage
  /// The session's CSRF token; empty before login (the login form then has none).
  public var csrf: String

  /// A context for one response.
  public init(language: WebLanguage, csrf: String) {
    self.language = language
    self.csrf = csrf
  }
}

/// One alarm of the list: the config's alarm plus what the service's state says of it.
public struct AlarmRow: Hashable, Sendable {
  /// The alarm as the config gives it.
  public var alarm: Alarm
  /// A one-off that has rung (shown as done, like `list`).
  public var done: Bool
  /// The date whose occurrence `skip` skips, when the next occurrence is skipped.
  public var skippedDate: LocalDate?

  /// A row for `alarm`.
  public init(alarm: Alarm, done: Bool = false, skippedDate: LocalDate? = nil) {
    self.alarm = alarm
    self.done = done
    self.skippedDate = skippedDate
  }
}

/// The next firing, as `next` shows it.
public struct NextAlarm: Hashable, Sendable {
  /// The alarm's id.
  public var id: String
  /// The label as the config gives it; nil shows the default label.
  public var label: String?
  /// The local date and wall time of the firing.
  public var date: LocalDate
  /// See `date`.
  public var time: LocalTime
  /// Time from now to the firing.
  public var until: Duration

  /// The next firing of alarm `id`.
  public init(id: String, label: String?, date: LocalDate, time: LocalTime, until: Duration) {
    self.id = id
    self.label = label
    self.date = date
    self.time = time
    self.until = until
  }
}

/// The list page (`GET /`).
public struct ListPage: Hashable, Sendable {
  /// The alarms in any order; the page sorts them by time, then id (as `list` does).
  public var alarms: [AlarmRow]
  /// The config file's ETag, sent back by the switch and skip forms as `etag`.
  public var etag: String
  /// The next firing, if any alarm is set.
  public var next: NextAlarm?
  /// The ring session from `status` (ringing or snoozed), shown as a big Snooze / Stop panel.
  public var session: SessionStatus?
  /// Why the service could not be asked (not running...); nil when it answered.
  public var serviceProblem: String?
  /// The config file's errors (`path:line:col: message`) when the file on disk is invalid.
  public var configErrors: [String]

  /// Memberwise.
  public init(
    alarms: [AlarmRow], etag: String, next: NextAlarm? = nil, session: SessionStatus? = nil,
    serviceProblem: String? = nil, configErrors: [String] = []
  ) {
    self.alarms = alarms
    self.etag = etag
    self.next = next
    self.session = session
    self.serviceProblem = serviceProblem
    self.configErrors = configErrors
  }
}

/// The values of the add / edit form, as shown and as posted back.
public struct AlarmForm: Hashable, Sendable {
  /// `HH:MM` (or `HH:MM:SS` for an alarm with seconds).
  public var time: String
  /// Repeat days; empty for a one-off.
  public var days: DaySet
  /// The label; empty for the default label.
  public var label: String
  /// A sound name from the sound directories; empty for the default sound.
  public var sound: String
  /// 0-100.
  public var volume: Int
  /// Snooze on (the alarm's or the default length) or off.
  public var snooze: Bool
  /// The on/off switch.
  public var enabled: Bool
  /// The "More settings" (`AlarmKey.moreSettings`) as the alarm's own text
  /// (`AlarmKey.text(in:)`: `15m`, `off`, a `skip` entry per line); empty or absent: it
  /// inherits `[defaults]`' (or has none). `.snooze` is the snooze length; `.id` the id.
  public var settings: [AlarmKey: String] = [:]

  /// The alarm a key inherits from: one that sets nothing but `[defaults]`.
  public static func inherited(_ defaults: AlarmDefaults) -> Alarm {
    Alarm(id: "", time: LocalTime(hour: 0, minute: 0, second: 0), defaults: defaults)
  }

  /// Memberwise.
  public init(
    time: String = "07:00", days: DaySet = .never, label: String = "", sound: String = "",
    volume: Int = 80, snooze: Bool = true, enabled: Bool = true
  ) {
    self.time = time
    self.days = days
    self.label = label
    self.sound = sound
    self.volume = volume
    self.snooze = snooze
    self.enabled = enabled
  }

  /// The form for an existing alarm. A setting equal to `defaults`' shows empty (the
  /// default, its value as the placeholder), so saving the form leaves it inherited.
  public init(_ alarm: Alarm, defaults: AlarmDefaults = AlarmDefaults()) {
    self.init(
      time: alarm.time.description, days: alarm.days, label: alarm.label ?? "",
      sound: alarm.sound ?? "", volume: alarm.volume, snooze: alarm.snooze != nil,
      enabled: alarm.enabled)
    let inherited = Self.inherited(defaults)
    for key in AlarmKey.moreSettings {
      let own = key.text(in: alarm)
      switch key {
      case .id: settings[key] = own
      // Off is the switch's; a length equal to the default's is the default.
      case .snooze where alarm.snooze == nil: break
      default: if !key.same(own, as: inherited) { settings[key] = own }
      }
    }
  }

  /// The text of setting `key` (empty: inherited).
  public subscript(key: AlarmKey) -> String {
    get { settings[key] ?? "" }
    set { settings[key] = newValue.isEmpty ? nil : newValue }
  }
}

/// The add form (`GET /alarms/new`, posting to `/alarms`) or the edit form (`GET /alarms/ID`,
/// posting to `/alarms/ID`), also re-shown with `errors` after a rejected post.
public struct EditPage: Hashable, Sendable {
  /// The alarm's id when editing; nil when adding.
  public var id: String?
  /// The values the fields show.
  public var form: AlarmForm
  /// The config file's ETag when the form was shown (hidden field `etag`).
  public var etag: String
  /// The sounds to choose from (names in the sound directories), in display order.
  public var sounds: [String]
  /// The sound an alarm without `sound` plays, for the "Default (...)" choice; nil if none.
  public var defaultSound: String?
  /// Why the last post was refused (the CLI's messages), shown above the form.
  public var errors: [String]
  /// `[defaults]`, for the placeholders of the settings an alarm inherits.
  public var defaults: AlarmDefaults

  /// Memberwise.
  public init(
    id: String?, form: AlarmForm, etag: String, sounds: [String], defaultSound: String? = nil,
    errors: [String] = [], defaults: AlarmDefaults = AlarmDefaults()
  ) {
    self.id = id
    self.form = form
    self.etag = etag
    self.sounds = sounds
    self.defaultSound = defaultSound
    self.errors = errors
    self.defaults = defaults
  }
}

/// The login page (`GET /login`, posting the field `token` to `/login`).
public struct LoginPage: Hashable, Sendable {
  /// The last attempt was refused.
  public var failed: Bool

  /// The login page, saying the last attempt failed when `failed`.
  public init(failed: Bool = false) { self.failed = failed }
}

/// An error page: 400, 403, 404, 409 (the file changed since the form was shown), 413, 503...
public struct ErrorPage: Hashable, Sendable {
  /// The HTTP status, shown as the heading.
  public var status: Int
  /// The detail (the CLI's message); the page adds a title in the page's language.
  public var message: String
  /// Where the "back" link goes.
  public var back: String

  /// An error page for `status`.
  public init(status: Int, message: String, back: String = "/") {
    self.status = status
    self.message = message
    self.back = back
  }
}
