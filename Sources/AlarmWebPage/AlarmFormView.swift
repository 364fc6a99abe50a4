import AlarmCore

/// The fields of the add / edit form, named as docs/http.md gives them: `time`, `days`
/// (repeated), `label`, `sound`, `volume`, `snooze`, `enabled`, and under "More settings"
/// `snooze_length`, `ring_for`, `max_snoozes`, `escalate_after`, `escalate_volume`,
/// `escalate_sound` (empty: `[defaults]`', shown as placeholders).
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
    s += "<label class=\"row\">\(HTML.escape(text.volume))"
    s += "<input type=\"range\" name=\"volume\" min=\"0\" max=\"100\" value=\"\(f.volume)\">"
    s += "<output id=\"vol\">\(f.volume)</output></label>"
    s += checkbox("snooze", text.snooze, f.snooze)
    s += checkbox("enabled", text.enabled, f.enabled)
    s += "</div>"
    // A <details> opens without JavaScript; open when one of them is the alarm's own.
    let own = ![
      f.snoozeLength, f.ringFor, f.maxSnoozes, f.escalateAfter, f.escalateVolume, f.escalateSound,
    ].allSatisfy(\.isEmpty)
    s += "<details class=\"card\"\(own ? " open" : "")><summary>\(HTML.escape(text.more))</summary>"
    let d = page.defaults
    s += field(
      "snooze_length", text.snoozeLength, f.snoozeLength,
      placeholder: d.snooze.map(DurationText.format) ?? text.off)
    s += field("ring_for", text.ringFor, f.ringFor, placeholder: DurationText.format(d.ringFor))
    s += field(
      "max_snoozes", text.maxSnoozes, f.maxSnoozes,
      placeholder: d.maxSnoozes.map(String.init) ?? text.noLimit, numeric: true)
    s += field(
      "escalate_after", text.escalateAfter, f.escalateAfter,
      placeholder: d.escalateAfter.map(DurationText.format) ?? text.off)
    s += field(
      "escalate_volume", text.escalateVolume, f.escalateVolume,
      placeholder: String(d.escalateVolume), numeric: true)
    s += soundSelect(
      "escalate_sound", text.escalateSound, f.escalateSound,
      empty: text.keepSound(d.escalateSound), page.sounds)
    s += "<p class=\"note\">\(HTML.escape(text.durationHint))</p></details>"
    return s
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
    _ name: String, _ shown: String, _ value: String, placeholder: String, numeric: Bool = false
  ) -> String {
    let mode = numeric ? " inputmode=\"numeric\"" : ""
    return
      "<label class=\"row\">\(HTML.escape(shown))<input name=\"\(name)\" maxlength=\"20\"\(mode)"
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
