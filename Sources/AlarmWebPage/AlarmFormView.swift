import AlarmCore

/// The fields of the add / edit form, named as docs/http.md gives them: `time`, `days`
/// (repeated), `label`, `sound`, `volume`, `snooze`, `enabled`, and under "More settings"
/// every other key (`AlarmKey.moreSettings`, named by `formName`; empty: `[defaults]`',
/// shown as placeholders).
enum AlarmFormView {
  static func fields(_ page: EditPage, _ text: WebText) -> String {
    let f = page.form
    var s =
      "<div class=\"card\"><label for=\"time\" class=\"note\">\(HTML.escape(text.time))</label>"
    // Seconds only when the alarm has them, so the usual form posts HH:MM.
    let step = f.time.count > 5 ? " step=\"1\"" : ""
    s += "<input class=\"clock\" type=\"time\" id=\"time\" name=\"time\" required"
    s += " value=\"\(HTML.escape(f.time))\"\(step)></div>"
    s +=
      "<fieldset class=\"card\"><legend>\(HTML.escape(text.repeatDays))</legend><div class=\"days\">"
    for day in dayOrder(text) {
      let checked = f.days.contains(day) ? " checked" : ""
      s += "<label><input type=\"checkbox\" name=\"days\" value=\"\(day.key)\"\(checked)>"
      s += "<span>\(HTML.escape(short(day, text)))</span></label>"
    }
    s += "</div><p class=\"note\">\(HTML.escape(text.repeatHint))</p></fieldset>"
    s += "<div class=\"card\">"
    s += "<label class=\"row\">\(HTML.escape(text.label))<input name=\"label\" maxlength=\"200\""
    s +=
      " value=\"\(HTML.escape(f.label))\" placeholder=\"\(HTML.escape(text.alarm.defaultLabel))\">"
    s += "</label>"
    s += soundSelect(
      "sound", text.sound, f.sound, empty: text.defaultSound(page.defaultSound), page.sounds)
    // A station cannot be listed: its address is typed (and wins over the list).
    s += "<label class=\"row\">\(HTML.escape(text.stationURL))<input type=\"url\""
    s += " name=\"sound_url\" maxlength=\"2048\" inputmode=\"url\" autocomplete=\"off\""
    s += " placeholder=\"https://\"></label>"
    s += "<p class=\"note\">\(HTML.escape(text.stationHint))</p>"
    s += "<label class=\"row\">\(HTML.escape(text.volume))"
    s += "<input type=\"range\" name=\"volume\" min=\"0\" max=\"100\" value=\"\(f.volume)\">"
    s += "<output id=\"vol\">\(f.volume)</output></label>"
    s += checkbox("snooze", text.snooze, f.snooze)
    s += checkbox("enabled", text.enabled, f.enabled)
    s += "</div>"
    // A <details> opens without JavaScript; open when one of them is the alarm's own.
    let own = AlarmKey.moreSettings.contains { $0 != .id && !f[$0].isEmpty }
    s += "<details class=\"card\"\(own ? " open" : "")><summary>\(HTML.escape(text.more))</summary>"
    let inherited = AlarmForm.inherited(page.defaults)
    for key in AlarmKey.moreSettings { s += setting(key, f[key], inherited, page, text) }
    s += "<p class=\"note\">\(HTML.escape(text.durationHint))</p></details>"
    return s
  }

  /// A "More settings" field, its control from the key's kind; an inherited value is
  /// the placeholder (or the empty choice).
  private static func setting(
    _ key: AlarmKey, _ value: String, _ inherited: Alarm, _ page: EditPage, _ text: WebText
  ) -> String {
    let name = key.formName
    let shown = text.field(key)
    let placeholder = key.text(in: inherited)
    switch key.kind {
    case .duration, .durationOrOff:
      return field(name, shown, value, placeholder: placeholder == "off" ? text.off : placeholder)
    case .count:
      return field(
        name, shown, value, placeholder: placeholder.isEmpty ? text.noLimit : placeholder,
        numeric: true)
    case .percent:
      return field(name, shown, value, placeholder: placeholder, numeric: true)
    case .sound:
      let empty =
        key == .sound ? text.defaultSound(page.defaultSound) : text.keepSound(inherited.sound)
      return soundSelect(name, shown, value, empty: empty, page.sounds)
    case .soundOrder:
      var s = "<label class=\"row\">\(HTML.escape(shown))<select name=\"\(name)\">"
      s += option("", text.soundOrder(inherited.soundOrder, default: true), selected: value.isEmpty)
      for order in SoundOrder.allCases {
        s += option(order.rawValue, text.soundOrder(order), selected: value == order.rawValue)
      }
      return s + "</select></label>"
    case .date:
      return "<label class=\"row\">\(HTML.escape(shown))<input type=\"date\" name=\"\(name)\""
        + " value=\"\(HTML.escape(value))\"></label>"
    case .skipList:
      return list(
        name, shown, value, placeholder: "2027-12-24\n2027-07-19..2027-07-30", text.skipHint)
    case .pathList:
      return list(name, shown, value, placeholder: placeholder, text.calendarsHint)
    case .id:
      return field(
        name, shown, value, placeholder: page.id == nil ? text.derivedID : "",
        maxLength: AlarmID.maxLength)
    case .onOff where key != .enabled:
      // Three ways, not a checkbox: `[defaults]` may turn it on, and an alarm off again.
      var s = "<label class=\"row\">\(HTML.escape(shown))<select name=\"\(name)\">"
      s += option("", text.defaultSwitch(placeholder == "on"), selected: value.isEmpty)
      s += option("on", text.on, selected: value == "on")
      s += option("off", text.off, selected: value == "off")
      return s + "</select></label>"
    case .time, .days, .label, .onOff:
      return ""
    }
  }

  /// A list, one entry per line, with what it takes said under it.
  private static func list(
    _ name: String, _ shown: String, _ value: String, placeholder: String, _ hint: String
  ) -> String {
    "<label class=\"list\">\(HTML.escape(shown))<textarea name=\"\(name)\" rows=\"3\""
      + " placeholder=\"\(HTML.escape(placeholder))\">\(HTML.escape(value))</textarea>"
      + "<span class=\"note\">\(HTML.escape(hint))</span></label>"
  }

  /// A choice of `sounds`, `empty` (the default) first. A sound the list does not offer (a
  /// path, a file since removed) stays choosable.
  private static func soundSelect(
    _ name: String, _ shown: String, _ value: String, empty: String, _ sounds: [String]
  ) -> String {
    var s = "<label class=\"row\">\(HTML.escape(shown))<select name=\"\(name)\">"
    s += option("", empty, selected: value.isEmpty)
    var names = sounds
    if !value.isEmpty && !names.contains(value) { names.insert(value, at: 0) }
    for n in names { s += option(n, n, selected: n == value) }
    return s + "</select></label>"
  }

  private static func field(
    _ name: String, _ shown: String, _ value: String, placeholder: String, numeric: Bool = false,
    maxLength: Int = 20
  ) -> String {
    let mode = numeric ? " inputmode=\"numeric\"" : ""
    return
      "<label class=\"row\">\(HTML.escape(shown))<input name=\"\(name)\" maxlength=\"\(maxLength)\"\(mode)"
      + " value=\"\(HTML.escape(value))\" placeholder=\"\(HTML.escape(placeholder))\"></label>"
  }

  /// Monday first in English, Sunday first in Chinese (as `AlarmText.repeatSummary`).
  static func dayOrder(_ text: WebText) -> [Weekday] {
    guard text.alarm.locale == .traditionalChinese else { return Weekday.allCases }
    return [.sunday] + Weekday.allCases.filter { $0 != .sunday }
  }

  /// One letter or character per day so seven fit a phone's width: "Mon"; "一".
  private static func short(_ day: Weekday, _ text: WebText) -> String {
    let name = text.alarm.weekday(day)
    return text.alarm.locale == .traditionalChinese ? String(name.suffix(1)) : name
  }

  private static func option(_ value: String, _ shown: String, selected: Bool) -> String {
    "<option value=\"\(HTML.escape(value))\"\(selected ? " selected" : "")>\(HTML.escape(shown))</option>"
  }

  private static func checkbox(_ name: String, _ shown: String, _ on: Bool) -> String {
    "<label class=\"row\">\(HTML.escape(shown))<input type=\"checkbox\" name=\"\(name)\" value=\"on\""
      + "\(on ? " checked" : "")></label>"
  }
}
