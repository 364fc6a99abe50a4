import AlarmClient
import AlarmCore
import AlarmWebPage

/// The add / edit form: fields `time`, `days` (repeated), `label`, `sound`, `volume`,
/// `snooze` and `enabled` (checkboxes: "on" when ticked), every other key under its
/// `formName` (`AlarmKey.moreSettings`; empty: the default), plus `csrf` and `etag`.
extension WebApp {
  func saveForm(id: String?, _ fields: FormData, _ page: PageContext) -> WebResponse {
    let view = configView()
    guard let config = view.config else {
      return errorPage(409, view.problems.joined(separator: "\n"), page)
    }
    var current: Alarm?
    if let id {
      guard let alarm = config.alarm(id: id) else {
        return errorPage(
          404, store.explain(.unknownAlarm(id: id, nearMatches: [], ids: [])).message, page)
      }
      current = alarm
    }
    let posted = Self.postedForm(fields, defaults: config.defaults.volume)
    let changes: AlarmChanges
    do {
      changes = try Self.changes(fields, current: current, defaults: config.defaults)
    } catch {
      return editPage(id: id, form: posted, errors: [error.message], page, status: 400)
    }
    let edit: ConfigEdit = id.map { .edit(id: $0, changes) } ?? .add(changes)
    switch store.apply(edit, ifMatch: fields["etag"]) {
    case .success: return .redirect("/")
    case .failure(let e) where e.kind == .invalidValue:
      return editPage(id: id, form: posted, errors: [e.message] + e.details, page, status: 400)
    case .failure(let e):
      return errorPage(Self.status(e), e.description, page)
    }
  }

  /// The form as posted, to show it again with an error.
  static func postedForm(_ f: FormData, defaults volume: Int) -> AlarmForm {
    let days = f.all("days").compactMap { Weekday(key: $0) }
    var form = AlarmForm(
      time: f["time"] ?? "", days: DaySet(days), label: f["label"] ?? "",
      sound: f["sound"] ?? "", volume: f["volume"].flatMap { Int($0) } ?? volume,
      snooze: f["snooze"] == "on", enabled: f["enabled"] == "on")
    for key in AlarmKey.moreSettings { form[key] = f[key.formName] ?? "" }
    return form
  }

  /// What the posted form changes. For an edit, only what differs from `current` is
  /// written, so an untouched field keeps inheriting `[defaults]`.
  static func changes(_ f: FormData, current: Alarm?, defaults: AlarmDefaults)
    throws(AlarmInputError) -> AlarmChanges
  {
    var c = AlarmChanges()
    func check<T>(_ name: String, _ r: Result<T, AlarmValueError>) throws(AlarmInputError) -> T {
      switch r {
      case .success(let v): return v
      case .failure(let e): throw AlarmInputError("\(name) wants \(e.expectation)")
      }
    }
    let time = try check("time", AlarmValueText.time(f["time"] ?? ""))
    if case .time(let t) = time, t != current?.time { c.values[.time] = time }
    let days = f.all("days")
    if days.isEmpty {
      // No day ticked: a one-off at the next occurrence of the time.
      if let current, !current.days.days.isEmpty { c.unset.insert(.days) }
    } else {
      let value = try check("days", AlarmValueText.days(days.joined(separator: ",")))
      if current.map({ Set($0.days.days.map(\.key)) != Set(days) }) ?? true {
        c.values[.days] = value
      }
    }
    let label = f["label"] ?? ""
    if label.isEmpty {
      if current?.label != nil { c.unset.insert(.label) }
    } else if label != current?.label {
      c.values[.label] = try check("label", AlarmValueText.label(label))
    }
    // A station's address, typed, wins over the list's choice.
    let url = String((f["sound_url"] ?? "").trimmingWhitespace)
    let sound = url.isEmpty ? f["sound"] ?? "" : url
    if !url.isEmpty, let why = SoundName.problem(url) {
      throw AlarmInputError("the station's address: \(why)")
    }
    if sound.isEmpty {
      if current?.sound != nil { c.unset.insert(.sound) }
    } else if sound != current?.sound {
      c.values[.sound] = .string(sound)
    }
    if let text = f["volume"], !text.isEmpty {
      let volume = try check("volume", AlarmValueText.volume(text))
      if case .integer(let n) = volume, n != (current?.volume ?? defaults.volume) {
        c.values[.volume] = volume
      }
    }
    try snoozeChanges(f, current: current, defaults: defaults, into: &c)
    let inherited = AlarmForm.inherited(defaults)
    let own = current ?? inherited
    for key in AlarmKey.moreSettings where key != .snooze {
      let raw = f[key.formName] ?? ""
      // A list keeps its lines; a field is what was typed between the blanks.
      let text =
        key.kind == .skipList || key.kind == .pathList ? raw : String(raw.trimmingWhitespace)
      if text.trimmingWhitespace.isEmpty {
        switch key {
        // An empty id keeps the alarm's (or derives one for a new alarm).
        case .id: break
        default: if !key.same(key.text(in: own), as: inherited) { c.unset.insert(key) }
        }
        continue
      }
      if !key.same(text, as: own) { c.values[key] = try check(key.rawValue, key.parse(text)) }
    }
    let enabled = f["enabled"] == "on"
    if enabled != (current?.enabled ?? true) { c.values[.enabled] = .boolean(enabled) }
    return c
  }

  /// The snooze switch and length. Ticked with no length: `[defaults]`' length (which must
  /// then be on); unticked: `snooze = false`.
  private static func snoozeChanges(
    _ f: FormData, current: Alarm?, defaults: AlarmDefaults, into c: inout AlarmChanges
  ) throws(AlarmInputError) {
    let on = f["snooze"] == "on"
    let now = current.map(\.snooze) ?? defaults.snooze
    guard on else {
      if now != nil || current == nil { c.values[.snooze] = .boolean(false) }
      return
    }
    let length = String((f[AlarmKey.snooze.formName] ?? "").trimmingWhitespace)
    if length.isEmpty {
      guard defaults.snooze != nil else {
        throw AlarmInputError(
          "snooze_length wants a length such as 9m: [defaults] has snooze off")
      }
      if current != nil, now != defaults.snooze { c.unset.insert(.snooze) }
      return
    }
    let value: AlarmValue
    switch AlarmValueText.duration(length, for: .snooze) {
    case .success(let v): value = v
    case .failure(let e): throw AlarmInputError("snooze_length wants \(e.expectation)")
    }
    if DurationText.parse(length) != now { c.values[.snooze] = value }
  }
}
