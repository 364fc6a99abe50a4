import AlarmCore

/// The alarm options shared by `add` and `edit`, read into the changes to make.
enum AlarmOptions {
  /// The options text for the commands' --help (from the keys' declarations).
  static let help = AlarmKey.optionsHelp

  /// Reads every alarm option into `changes`.
  static func read(_ arguments: inout Arguments, into changes: inout AlarmChanges)
    throws(UsageError)
  {
    // Each option's name is its key's (`AlarmKey.option`), as the help's.
    func take(_ key: AlarmKey, _ parse: (String) -> Result<AlarmValue, AlarmValueError>)
      throws(UsageError)
    {
      let name = key.option.flag
      guard let text = try arguments.option(name) else { return }
      changes.values[key] = try value(name, parse(text))
    }
    try take(.time, AlarmValueText.time)
    try take(.days, AlarmValueText.days)
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
    func takeSound(_ key: AlarmKey) throws(UsageError) {
      let name = key.option.flag
      guard let text = try arguments.option(name) else { return }
      guard !text.isEmpty else { throw UsageError("\(name) needs a sound name or path") }
      changes.values[key] = .string(text)
    }
    try takeSound(.sound)
    try take(.soundOrder, AlarmValueText.soundOrder)
    try take(.volume, AlarmValueText.volume)
    try take(.ramp) { AlarmValueText.duration($0, for: .ramp) }
    try take(.ringFor) { AlarmValueText.duration($0, for: .ringFor) }
    let noSnooze = arguments.flag("--no-snooze")
    if let text = try arguments.option("--snooze") {
      guard !noSnooze else { throw UsageError("--snooze and --no-snooze contradict each other") }
      changes.values[.snooze] = try value("--snooze", AlarmValueText.duration(text, for: .snooze))
    } else if noSnooze {
      changes.values[.snooze] = .boolean(false)
    }
    try take(.maxSnoozes, AlarmValueText.maxSnoozes)
    try take(.escalateAfter, AlarmValueText.escalateAfter)
    try take(.escalateVolume, AlarmValueText.volume)
    try takeSound(.escalateSound)
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
    try take(.id, AlarmValueText.id)
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
