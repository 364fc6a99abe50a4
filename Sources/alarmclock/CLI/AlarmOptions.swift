import AlarmCore

/// The alarm options shared by `add` and `edit`, read into the changes to make.
enum AlarmOptions {
  /// The options text for the commands' --help.
  static let help = """
      --days DAYS       daily, weekdays, weekends, never, or days like mon,wed
      --date DATE       a one-off on that day (YYYY-MM-DD)
      --label TEXT      the label (edit: "" goes back to the default label)
      --sound SOUND     a sound name or path (a folder: one of its files each ring)
      --sound-order O   a sound folder's order: shuffle (random) or rotate (name order)
      --volume N        0 to 100 (percent)
      --ramp DUR        fade-in, e.g. 30s (0s: none)
      --snooze DUR      snooze length, e.g. 9m
      --no-snooze       snooze off
      --max-snoozes N   after N snoozes only stop ends the ring (0 to 1000)
      --ring-for DUR    silence itself after ringing this long, e.g. 10m
      --skip DATE       a day it does not ring (repeatable; edit: added to the list)
      --skip-calendar PATH
                        an iCalendar file whose all-day events are days off
                        (repeatable; sets skip_calendars to the paths given)
      --id ID           the id (lower-case letters, digits, - and _)
      --disabled        written with enabled = false
    """

  /// Reads every alarm option into `changes`.
  static func read(_ arguments: inout Arguments, into changes: inout AlarmChanges)
    throws(UsageError)
  {
    func take(
      _ name: String, _ key: AlarmKey,
      _ parse: (String) -> Result<AlarmValue, AlarmValueError>
    ) throws(UsageError) {
      guard let text = try arguments.option(name) else { return }
      changes.values[key] = try value(name, parse(text))
    }
    try take("--time", .time, AlarmValueText.time)
    try take("--days", .days, AlarmValueText.days)
    if let text = try arguments.option("--date") {
      changes.values[.date] = .date(try value("--date", AlarmValueText.date(text)))
    }
    if let text = try arguments.option("--label") {
      if text.isEmpty {
        changes.unset.insert(.label)
      } else {
        changes.values[.label] = try value("--label", AlarmValueText.label(text))
      }
    }
    if let text = try arguments.option("--sound") {
      guard !text.isEmpty else { throw UsageError("--sound needs a sound name or path") }
      changes.values[.sound] = .string(text)
    }
    try take("--sound-order", .soundOrder, AlarmValueText.soundOrder)
    try take("--volume", .volume, AlarmValueText.volume)
    try take("--ramp", .ramp) { AlarmValueText.duration($0, for: .ramp) }
    try take("--ring-for", .ringFor) { AlarmValueText.duration($0, for: .ringFor) }
    let noSnooze = arguments.flag("--no-snooze")
    if let text = try arguments.option("--snooze") {
      guard !noSnooze else { throw UsageError("--snooze and --no-snooze contradict each other") }
      changes.values[.snooze] = try value("--snooze", AlarmValueText.duration(text, for: .snooze))
    } else if noSnooze {
      changes.values[.snooze] = .boolean(false)
    }
    try take("--max-snoozes", .maxSnoozes, AlarmValueText.maxSnoozes)
    for text in try arguments.options("--skip") {
      changes.addSkips.append(try value("--skip", AlarmValueText.date(text)))
    }
    let calendars = try arguments.options("--skip-calendar")
    if !calendars.isEmpty {
      guard !calendars.contains(where: \.isEmpty) else {
        throw UsageError("--skip-calendar needs the path of an iCalendar file")
      }
      changes.values[.skipCalendars] = .strings(calendars)
    }
    try take("--id", .id, AlarmValueText.id)
    if arguments.flag("--disabled") { changes.values[.enabled] = .boolean(false) }
  }

  private static func value<T>(_ name: String, _ result: Result<T, AlarmValueError>)
    throws(UsageError) -> T
  {
    switch result {
    case .success(let v): return v
    case .failure(let e): throw UsageError("\(name) wants \(e.expectation)")
    }
  }
}
