import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform

/// `alarmclock remind ...`: the reminder list beside the config (reminders.toml).
struct RemindCommand: Command {
  static let name = "remind"
  static let summary = "the reminder list: add, list, tick, edit, move, remove"
  static let help = """
    usage: alarmclock remind add TITLE [--due WHEN] [--notes TEXT] [--id ID] [--config PATH]
           alarmclock remind list [--all] [--json] [--config PATH]
           alarmclock remind done ID | undone ID | remove ID [--config PATH]
           alarmclock remind edit ID [--title TEXT] [--due WHEN | --no-due]
                                     [--notes TEXT | --no-notes] [--id NEWID] [--config PATH]
           alarmclock remind move ID --to N [--config PATH]

    The reminder list is reminders.toml beside the config file (one [[reminder]] block
    each, in list order; edit it by hand too). Edits touch only the reminder they change
    and keep every comment; a refused edit leaves the file as it was.

    list shows the open reminders (with --all, the done ones too): position, tick,
    title, when due, id. --json gives objects with id, title, notes, due, done,
    position and photo. Texts follow the locale (LC_ALL, LC_MESSAGES, LANG).

    options:
      --due WHEN        a date (2026-12-04) or a local date and time (2026-12-04T07:30,
                        seconds allowed), in the config's time zone
      --no-due          remove the due date
      --notes TEXT      notes (shown under the reminder; several lines allowed)
      --no-notes        remove the notes
      --title TEXT      the new title (one line)
      --id ID           the id to write (default: made from the title)
      --to N            the new position: 1 is the top; past the end is the bottom
      --all             list done reminders too
      --json            list as JSON
      --config PATH     the config whose list it is (default $ALARMCLOCK_CONFIG, else
                        /etc/alarmclock/alarms.toml)
    """

  enum Verb {
    case add(ReminderChanges)
    case list(all: Bool, json: Bool)
    case done(String, Bool)
    case edit(String, ReminderChanges)
    case remove(String)
    case move(String, Int)
  }

  var configPath: String?
  var verb: Verb

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    let word = try arguments.positional("what to do (add, list, done, undone, edit, move, remove)")
    switch word {
    case "add":
      var changes = try Self.changes(&arguments)
      changes.values[.title] = try Self.parse(.title, try arguments.positional("TITLE"))
      verb = .add(changes)
    case "list":
      verb = .list(all: arguments.flag("--all"), json: arguments.flag("--json"))
    case "done", "undone":
      verb = .done(try arguments.positional("ID"), word == "done")
    case "remove":
      verb = .remove(try arguments.positional("ID"))
    case "edit":
      var changes = try Self.changes(&arguments)
      if let title = try arguments.option("--title") {
        changes.values[.title] = try Self.parse(.title, title)
      }
      let id = try arguments.positional("ID")
      if changes.isEmpty { throw UsageError("nothing to change: give an option such as --title") }
      verb = .edit(id, changes)
    case "move":
      guard let to = try arguments.intOption("--to", in: 1...Reminder.maxCount) else {
        throw UsageError("move needs --to N, the new position (1 is the top)")
      }
      verb = .move(try arguments.positional("ID"), to)
    default:
      throw UsageError(
        "unknown 'remind \(word)': use add, list, done, undone, edit, move or remove")
    }
  }

  /// `--due`/`--no-due`, `--notes`/`--no-notes` and `--id`.
  private static func changes(_ arguments: inout Arguments) throws(UsageError) -> ReminderChanges {
    var changes = ReminderChanges()
    for key in [ReminderKey.due, .notes, .id] {
      let option = "--" + key.rawValue
      if let text = try arguments.option(option) { changes.values[key] = try parse(key, text) }
      if key != .id, arguments.flag("--no-" + key.rawValue) {
        guard changes.values[key] == nil else {
          throw UsageError("\(option) and --no-\(key.rawValue) contradict each other")
        }
        changes.unset.insert(key)
      }
    }
    return changes
  }

  /// `text` as `key`'s value (the parser the API and the page use), or the usage error.
  private static func parse(_ key: ReminderKey, _ text: String) throws(UsageError) -> ReminderValue
  {
    switch key.parse(text) {
    case .success(let value): return value
    case .failure(let e):
      throw UsageError(key == .title ? "the title \(e)" : "--\(key.rawValue) \(e)")
    }
  }

  func run() -> Int32 {
    let env = processEnvironment()
    let config = ConfigFile.path(configPath, environment: env)
    let store = ReminderStore(configPath: config)
    let text = ReminderText(DisplayLocale(environment: env))
    let edit: ReminderEdit
    switch verb {
    case .list(let all, let json):
      return list(store, all: all, json: json, text: text, today: today(config, env: env))
    case .add(let changes): edit = .add(changes)
    case .done(let id, let done): edit = .setDone(id: id, done)
    case .edit(let id, let changes): edit = .edit(id: id, changes)
    case .remove(let id): edit = .remove(id: id)
    case .move(let id, let to): edit = .move(id: id, position: to)
    }
    // Removing takes the reminder's photo file with it.
    let result: Result<ReminderStore.Outcome, ClientError>
    if case .remove(let id) = edit {
      result = store.remove(id: id)
    } else {
      result = store.apply(edit)
    }
    switch result {
    case .failure(let error):
      for line in error.lines { printError(line) }
      return ExitCode.failure
    case .success(let outcome):
      for warning in outcome.warnings { printError(warning) }
      for note in outcome.result.notes { printOut("note: \(note)") }
      report(edit, outcome.result, text: text, today: { today(config, env: env) })
      return ExitCode.ok
    }
  }

  private func report(
    _ edit: ReminderEdit, _ r: ReminderEditResult, text: ReminderText,
    today: () -> LocalDate
  ) {
    let what: String
    switch edit {
    case .add: what = "added reminder '\(r.id)'"
    case .setDone(let id, let done):
      what =
        r.changed
        ? "reminder '\(r.id)' is \(done ? "done" : "open") now"
        : "reminder '\(id)' already is \(done ? "done" : "open")"
    case .edit(let id, _):
      what = r.changed ? "changed reminder '\(r.id)'" : "reminder '\(id)' already is so"
    case .remove(let id): what = "removed reminder '\(id)'"
    case .move(let id, _):
      what = r.changed ? "moved reminder '\(id)'" : "reminder '\(id)' already is there"
    }
    printOut(what)
    if case .remove = edit { return }
    if let i = r.list.index(of: r.id) {
      // Only now: today comes from the config's zone, which means decoding the config.
      printOut(text.line(r.list.reminders[i], position: i + 1, today: today()))
    }
  }

  private func list(
    _ store: ReminderStore, all: Bool, json: Bool, text: ReminderText, today: LocalDate
  ) -> Int32 {
    let list: ReminderList
    switch store.list() {
    case .failure(let error):
      for line in error.lines { printError(line) }
      return ExitCode.failure
    case .success(let read): list = read.list
    }
    if json {
      printOut(list.json(all: all).encoded())
      return ExitCode.ok
    }
    var any = false
    for (i, r) in list.reminders.enumerated() where all || !r.done {
      any = true
      printOut(text.line(r, position: i + 1, today: today))
      for note in (r.notes ?? "").split(separator: "\n", omittingEmptySubsequences: false)
      where r.notes != nil {
        printOut("     " + note)
      }
      if let photo = r.photo { printOut("     photo: \(photo)") }
    }
    if !any { printOut(text.empty(all: all || list.reminders.isEmpty)) }
    return ExitCode.ok
  }

  /// Today in the config's time zone (the system's when the config cannot be read).
  private func today(_ config: String, env: [String: String]) -> LocalDate {
    let now = currentInstant()
    if case .success(let loaded) = ConfigFile.load(config, environment: env, now: nil),
      loaded.config != nil
    {
      return loaded.zone.local(at: now).date
    }
    return ZoneLoader.system(environment: env).local(at: now).date
  }
}
