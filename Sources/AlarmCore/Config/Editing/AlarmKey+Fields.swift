/// What each key of an `[[alarm]]` is to the commands, the page and the API, declared
/// once: `add` and `edit` take their options, parsers and help from it, `edit --unset` its
/// list, the API its accepted fields and parsers, the page its fields (`AlarmForm`); the
/// completion test checks the completion file against that help. A new key is a case of
/// `AlarmKey`, a row in each switch here (the compiler asks for it), its decoding in
/// `AlarmDecoder`, and its place on the page (`AlarmKey.formPlace` in AlarmWebPage).
extension AlarmKey {
  /// What the key's value is: it decides the value's parser (`parse`), its option's
  /// placeholder and its control on the page.
  public enum Kind: Hashable, Sendable {
    case id, time, days, date, label, sound, soundOrder
    /// 0 to 100 %.
    case percent
    /// Within the key's range (`AlarmValueText.duration`).
    case duration
    /// A duration or `off`.
    case durationOrOff
    /// A whole number (`max_snoozes`).
    case count
    /// Days and ranges (`skip`).
    case skipList
    /// Paths (`skip_calendars`).
    case pathList
    /// A switch (`enabled`).
    case onOff
  }

  /// See `Kind`.
  public var kind: Kind {
    switch self {
    case .id: return .id
    case .time: return .time
    case .days: return .days
    case .date: return .date
    case .label: return .label
    case .sound, .escalateSound, .fallbackSound: return .sound
    case .soundOrder: return .soundOrder
    case .volume, .escalateVolume: return .percent
    case .ramp, .snooze, .ringFor, .announceEvery: return .duration
    case .escalateAfter: return .durationOrOff
    case .maxSnoozes: return .count
    case .skip: return .skipList
    case .skipCalendars: return .pathList
    case .enabled, .announce: return .onOff
    }
  }

  /// The `add`/`edit` option that sets it (`--ring-for`, the key with dashes) and its
  /// value's placeholder (from its kind).
  public var option: (flag: String, value: String?) {
    switch self {
    // Repeatable, one path each: the option is singular, the key a list.
    case .skipCalendars: return ("--skip-calendar", "PATH")
    // On is the default, so the option is the other way.
    case .enabled: return ("--disabled", nil)
    // Off is a setting too: `[defaults]` may turn it on for every alarm.
    case .announce: return ("--announce", "on|off")
    default: break
    }
    let flag = "--" + String(rawValue.map { $0 == "_" ? "-" : $0 })
    switch kind {
    case .id: return (flag, "ID")
    case .time: return (flag, "TIME")
    case .days: return (flag, "DAYS")
    case .date, .skipList: return (flag, "DATE")
    case .label: return (flag, "TEXT")
    case .sound: return (flag, "SOUND")
    case .soundOrder: return (flag, "O")
    case .percent, .count: return (flag, "N")
    case .duration, .durationOrOff: return (flag, "DUR")
    case .pathList: return (flag, "PATH")
    case .onOff: return (flag, nil)
    }
  }

  /// Its value from text, as `add`/`edit`, the page and the API's strings give it, with
  /// what was expected when it is not one. A `skip` list is entries separated by commas,
  /// blanks or lines; a `skip_calendars` list one path per line (`none`: the empty list).
  public func parse(_ text: String) -> Result<AlarmValue, AlarmValueError> {
    switch kind {
    case .id: return AlarmValueText.id(text)
    case .time: return AlarmValueText.time(text)
    case .days: return AlarmValueText.days(text)
    case .date: return AlarmValueText.date(text).map(AlarmValue.date)
    case .label: return AlarmValueText.label(text)
    case .sound:
      if text.isEmpty { return .failure(AlarmValueError("a sound name or path")) }
      if self == .fallbackSound, let why = SoundName.fallbackProblem(text) {
        return .failure(AlarmValueError(why))
      }
      return .success(.string(text))
    case .soundOrder: return AlarmValueText.soundOrder(text)
    case .percent: return AlarmValueText.volume(text)
    case .duration: return AlarmValueText.duration(text, for: self)
    case .durationOrOff: return AlarmValueText.escalateAfter(text)
    case .count: return AlarmValueText.maxSnoozes(text)
    case .skipList: return AlarmValueText.skipList(text)
    case .pathList: return AlarmValueText.pathList(text)
    case .onOff:
      switch text {
      case "true", "on": return .success(.boolean(true))
      case "false", "off": return .success(.boolean(false))
      default: return .failure(AlarmValueError("on or off, not \(quoted(text))"))
      }
    }
  }

  /// `alarm`'s value as text that `parse` reads back to it: durations as `9m`, `off` for
  /// no snooze or escalation, an empty text for no label, sound, date or limit, a `skip`
  /// list one entry per line, `skip_calendars` one path per line (`none` when empty).
  public func text(in alarm: Alarm) -> String {
    switch self {
    case .id: return alarm.id
    case .time: return alarm.time.description
    case .days:
      return alarm.days.isEmpty ? "never" : alarm.days.days.map(\.key).joined(separator: ",")
    case .date: return alarm.date?.description ?? ""
    case .label: return alarm.label ?? ""
    case .sound: return alarm.sound ?? ""
    case .fallbackSound: return alarm.fallbackSound ?? ""
    case .soundOrder: return alarm.soundOrder.rawValue
    case .volume: return String(alarm.volume)
    case .ramp: return DurationText.format(alarm.ramp)
    case .snooze: return alarm.snooze.map(DurationText.format) ?? "off"
    case .maxSnoozes: return alarm.maxSnoozes.map(String.init) ?? ""
    case .ringFor: return DurationText.format(alarm.ringFor)
    case .escalateAfter: return alarm.escalateAfter.map(DurationText.format) ?? "off"
    case .escalateVolume: return String(alarm.escalateVolume)
    case .escalateSound: return alarm.escalateSound ?? ""
    case .announce: return alarm.announce ? "on" : "off"
    case .announceEvery: return DurationText.format(alarm.announceEvery)
    case .skip: return SkipEntry.entries(of: alarm).map(\.description).joined(separator: "\n")
    case .skipCalendars:
      return alarm.skipCalendars.isEmpty ? "none" : alarm.skipCalendars.joined(separator: "\n")
    case .enabled: return alarm.enabled ? "on" : "off"
    }
  }

  /// Whether `text` (as typed) and `alarm`'s value are the same setting: `15m` and `900s`
  /// are one duration, the same days off in another order one `skip` list.
  public func same(_ text: String, as alarm: Alarm) -> Bool {
    canonical(text) == canonical(self.text(in: alarm))
  }

  /// One spelling of each value: what `text` means, or `text` itself when it means none.
  private func canonical(_ text: String) -> String {
    switch (kind, parse(text)) {
    case (.duration, .success), (.durationOrOff, .success(.string)):
      return DurationText.parse(text).map(DurationText.format) ?? text
    case (.days, .success(.strings(let days))):
      return days.joined(separator: ",")
    case (.skipList, .success(.skips(let entries))):
      return entries.map(\.description).joined(separator: "\n")
    case (.pathList, .success(.strings(let paths))):
      return paths.isEmpty ? "none" : paths.joined(separator: "\n")
    case (_, .success(.integer(let n))):
      return String(n)
    default:
      return text
    }
  }

  /// The option's help, a line or more (`add`'s and `edit`'s `--help`).
  public var help: [String] {
    switch self {
    case .id: return ["the id (lower-case letters, digits, - and _)"]
    case .time: return ["HH:MM or HH:MM:SS"]
    case .days: return ["daily, weekdays, weekends, never, or days like mon,wed"]
    case .date: return ["a one-off on that day (YYYY-MM-DD)"]
    case .label: return ["the label (edit: \"\" goes back to the default label)"]
    case .sound:
      return [
        "a sound name or path (a folder: one of its files each ring),",
        "or a stream's http(s):// URL",
      ]
    case .fallbackSound: return ["what rings when the stream cannot (a name, path or folder)"]
    case .soundOrder:
      return ["a sound folder's order: shuffle (random) or rotate", "(name order)"]
    case .volume: return ["0 to 100 (percent)"]
    case .ramp: return ["fade-in, e.g. 30s (0s: none)"]
    case .snooze: return ["snooze length, e.g. 9m"]
    case .maxSnoozes: return ["after N snoozes only stop ends the ring (0 to 1000)"]
    case .ringFor: return ["silence itself after ringing this long, e.g. 10m"]
    case .escalateAfter: return ["a ring going this long gets louder, e.g. 5m (off: never)"]
    case .escalateVolume: return ["the volume it rises to (0 to 100)"]
    case .escalateSound: return ["the sound it switches to (a name, path or folder)"]
    case .announce: return ["say the time and label while it rings (on or off)"]
    case .announceEvery: return ["how often the announcement is repeated, e.g. 1m"]
    case .skip:
      return [
        "a day it does not ring, or days FROM..TO (repeatable;", "edit: added to the list)",
      ]
    case .skipCalendars:
      return [
        "an iCalendar file whose all-day events are days off",
        "(repeatable; sets skip_calendars to the paths given)",
      ]
    case .enabled: return ["written with enabled = false"]
    }
  }

  /// The option that turns it off (`--no-snooze`) and its help, for the keys that have one
  /// in both `add` and `edit` (`edit --enabled`, the opposite of `--disabled`, is edit's).
  public var negation: (flag: String, help: String)? {
    self == .snooze ? ("--no-snooze", "snooze off") : nil
  }

  /// `edit --unset` may remove it, so the alarm inherits `[defaults]` again: every key
  /// but `time`, which an alarm cannot lack.
  public var unsettable: Bool { self != .time }

  /// The API's JSON (`POST /api/alarms`, `PATCH /api/alarms/ID`) may set it: every key.
  public var settableFromAPI: Bool { true }

  /// `ring-for` or `ring_for`, as `edit --unset` takes it.
  public init?(spelled name: String) {
    self.init(rawValue: String(name.map { $0 == "-" ? "_" : $0 }))
  }

  /// The keys `edit --unset` takes, in the file's order.
  public static var unsettableKeys: [AlarmKey] { allCases.filter(\.unsettable) }
  /// The keys the API takes.
  public static var apiKeys: [AlarmKey] { allCases.filter(\.settableFromAPI) }

  /// The options' part of `add`'s and `edit`'s help (every key but `time`, which `add`
  /// takes as its argument and `edit` lists first), aligned as the other commands' help.
  public static var optionsHelp: String {
    var lines: [String] = []
    func row(_ left: String, _ text: [String]) {
      let pad = String(repeating: " ", count: 20)
      if left.count <= 16 {
        lines.append("  " + left + String(repeating: " ", count: 18 - left.count) + text[0])
      } else {
        lines.append("  " + left)
        lines.append(pad + text[0])
      }
      for more in text.dropFirst() { lines.append(pad + more) }
    }
    for key in allCases where key != .time {
      let (flag, value) = key.option
      row(value.map { flag + " " + $0 } ?? flag, key.help)
      if let (off, text) = key.negation { row(off, [text]) }
    }
    return lines.joined(separator: "\n")
  }
}
