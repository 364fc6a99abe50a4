import AlarmCore

/// The fields of the add / edit form, named as docs/http.md gives them: `time`, `days`
/// (repeated), `label`, `sound`, `volume`, `snooze`, `enabled`, and under "More settings"
/// `snooze_length`, `ring_for`, `max_snoozes` (empty: `[defaults]`', shown as placeholders).
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
    s += "<label class=\"row\">\(HTML.escape(text.sound))<select name=\"sound\">"
    s += option("", text.defaultSound(page.defaultSound), selected: f.sound.isEmpty)
    var sounds = page.sounds
    // A sound the list does not offer (a path, a file since removed) stays choosable.
    if !f.sound.isEmpty && !sounds.contains(f.sound) { sounds.insert(f.sound, at: 0) }
    for name in sounds { s += option(name, name, selected: name == f.sound) }
    s += "</select></label>"
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
    s += "<label class=\"row\">\(HTML.escape(text.escalateSound))<select name=\"escalate_sound\">"
    s += option("", text.keepSound(d.escalateSound), selected: f.escalateSound.isEmpty)
    var louder = page.sounds
    if !f.escalateSound.isEmpty && !louder.contains(f.escalateSound) {
      louder.insert(f.escalateSound, at: 0)
    }
    for name in louder { s += option(name, name, selected: name == f.escalateSound) }
    s += "</select></label>"
    s += "<p class=\"note\">\(HTML.escape(text.durationHint))</p></details>"
    return s
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
