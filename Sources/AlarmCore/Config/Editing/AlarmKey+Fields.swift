/// What each key of an `[[alarm]]` is to the commands and the API, declared once: `add` and
/// `edit` take their options and help from it, `edit --unset` its list, the API its
/// accepted fields; the completion test checks the completion file against that help.
/// A new key is a case of `AlarmKey`, a row in each switch here (the compiler asks for
/// it), its decoding in `AlarmDecoder`, and its value's parser in `AlarmValueText`.
extension AlarmKey {
  /// The `add`/`edit` option that sets it (`--ring-for`) and its value's placeholder.
  public var option: (flag: String, value: String?) {
    switch self {
    case .id: return ("--id", "ID")
    case .time: return ("--time", "TIME")
    case .days: return ("--days", "DAYS")
    case .date: return ("--date", "DATE")
    case .label: return ("--label", "TEXT")
    case .sound: return ("--sound", "SOUND")
    case .soundOrder: return ("--sound-order", "O")
    case .volume: return ("--volume", "N")
    case .ramp: return ("--ramp", "DUR")
    case .snooze: return ("--snooze", "DUR")
    case .maxSnoozes: return ("--max-snoozes", "N")
    case .ringFor: return ("--ring-for", "DUR")
    case .escalateAfter: return ("--escalate-after", "DUR")
    case .escalateVolume: return ("--escalate-volume", "N")
    case .escalateSound: return ("--escalate-sound", "SOUND")
    case .skip: return ("--skip", "DATE")
    // Repeatable, one path each: the option is singular, the key a list.
    case .skipCalendars: return ("--skip-calendar", "PATH")
    case .enabled: return ("--disabled", nil)
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
    case .sound: return ["a sound name or path (a folder: one of its files each ring)"]
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
    case .skip: return ["a day it does not ring (repeatable; edit: added to the list)"]
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

  /// The API's JSON (`POST /api/alarms`, `PATCH /api/alarms/ID`) may set it: all but the
  /// lists of days off, which the API does not take yet.
  public var settableFromAPI: Bool { self != .skip && self != .skipCalendars }

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
