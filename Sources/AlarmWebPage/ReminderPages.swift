import AlarmCore

/// What the reminder list screen shows.
public struct RemindersPage: Hashable, Sendable {
  /// The reminders in list order.
  public var reminders: [Reminder]
  /// The list file's ETag, sent back by every form as `etag`.
  public var etag: String
  /// Today in the config's time zone (for "today", "tomorrow", "overdue").
  public var today: LocalDate
  /// The list file's errors (`path:line:col: message`) when it is invalid.
  public var errors: [String]

  public init(reminders: [Reminder], etag: String, today: LocalDate, errors: [String] = []) {
    self.reminders = reminders
    self.etag = etag
    self.today = today
    self.errors = errors
  }
}

/// The values of the reminder form: `title`, `due_date` (YYYY-MM-DD or empty), `due_time`
/// (HH:MM[:SS] or empty), `notes`.
public struct ReminderForm: Hashable, Sendable {
  public var title = ""
  public var dueDate = ""
  public var dueTime = ""
  public var notes = ""

  public init(title: String = "", dueDate: String = "", dueTime: String = "", notes: String = "") {
    self.title = title
    self.dueDate = dueDate
    self.dueTime = dueTime
    self.notes = notes
  }

  /// The form of a reminder as it is.
  public init(_ r: Reminder) {
    title = r.title
    dueDate = r.due.map { $0.date.description } ?? ""
    if let t = r.due?.time {
      dueTime = "\(pad2(t.hour)):\(pad2(t.minute))" + (t.second == 0 ? "" : ":\(pad2(t.second))")
    }
    notes = r.notes ?? ""
  }
}

private func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

/// The add or edit form of a reminder.
public struct ReminderEditPage: Hashable, Sendable {
  /// The reminder's id when editing; nil when adding.
  public var id: String?
  public var form: ReminderForm
  /// The list file's ETag when the form was shown.
  public var etag: String
  /// Why the last post was refused.
  public var errors: [String]
  /// Whether the reminder has a photo (shown on its form, with a button that removes it).
  public var hasPhoto: Bool

  public init(
    id: String?, form: ReminderForm, etag: String, errors: [String] = [], hasPhoto: Bool = false
  ) {
    self.id = id
    self.form = form
    self.etag = etag
    self.errors = errors
    self.hasPhoto = hasPhoto
  }
}

extension WebPage {
  /// The reminder list (the seed's 提醒清單): a tick per row (a one-button form), the title
  /// linking to its form, when it is due and its notes, up and down buttons; done ones
  /// struck through. Every action is a form, so it works without JavaScript.
  public static func reminders(_ page: RemindersPage, _ context: PageContext) -> String {
    let text = WebText(context.language)
    let words = ReminderText(context.language.locale)
    var body = "<header><h1>\(HTML.escape(text.reminders))</h1>"
    body += "<a class=\"btn plus\" href=\"/reminders/new\" aria-label=\""
    body += "\(HTML.escape(text.addReminder))\">+</a></header>"
    body += tabs(.reminders, text)
    if !page.errors.isEmpty {
      body += "<div class=\"card box bad\" role=\"alert\" id=\"errors\">"
      body += "<strong>\(HTML.escape(text.remindersErrors))</strong><ul>"
      body += page.errors.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div>"
    }
    if page.reminders.isEmpty && page.errors.isEmpty {
      body += "<p class=\"card note\">\(HTML.escape(text.noReminders))</p>"
    } else if !page.reminders.isEmpty {
      body += "<ul class=\"list reminders\">"
      for (i, r) in page.reminders.enumerated() {
        body += reminderRow(
          r, first: i == 0, last: i == page.reminders.count - 1, page, context.csrf, text, words)
      }
      body += "</ul>"
    }
    return Layout.document(
      title: text.reminders, lang: context.language.htmlLang, body: body,
      ring: ringPanel(nil, context.csrf, text))
  }

  /// The add or edit form of a reminder, with delete when editing.
  public static func reminderEdit(_ page: ReminderEditPage, _ context: PageContext) -> String {
    let text = WebText(context.language)
    let title = page.id == nil ? text.addReminder : text.editReminder
    var body = "<header><a class=\"btn link\" href=\"/reminders\">\(HTML.escape(text.cancel))</a>"
    body += "<h1>\(HTML.escape(title))</h1><span></span></header>"
    if !page.errors.isEmpty {
      body += "<div class=\"card box bad\" role=\"alert\" id=\"errors\"><ul>"
      body += page.errors.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div>"
    }
    let f = page.form
    var fields = "<div class=\"card\">"
    fields += "<label class=\"list\">\(HTML.escape(text.reminderTitle))"
    fields += "<input class=\"full\" name=\"title\" required maxlength=\"1000\""
    fields += " value=\"\(HTML.escape(f.title))\"\(page.id == nil ? " autofocus" : "")></label>"
    fields += "<label class=\"row\">\(HTML.escape(text.dueDate))"
    fields += "<input type=\"date\" name=\"due_date\" value=\"\(HTML.escape(f.dueDate))\"></label>"
    fields += "<label class=\"row\">\(HTML.escape(text.dueTime))"
    fields += "<input type=\"time\" name=\"due_time\" step=\"60\""
    fields += " value=\"\(HTML.escape(f.dueTime))\"></label>"
    fields += "<p class=\"note\">\(HTML.escape(text.dueHint))</p>"
    fields += "<label class=\"list\">\(HTML.escape(text.notes))"
    fields += "<textarea name=\"notes\" rows=\"3\" maxlength=\"4096\">"
    fields += "\(HTML.escape(f.notes))</textarea></label></div>"
    let action = page.id.map { "/reminders/" + HTML.pathSegment($0) } ?? "/reminders"
    body += HTML.form(
      action: action, csrf: context.csrf, etag: page.etag, attributes: " class=\"stack\"",
      fields + "<button class=\"primary\">\(HTML.escape(text.save))</button>")
    if let id = page.id {
      body += photoCard(id: id, page, context, text)
      body += HTML.form(
        action: "/reminders/" + HTML.pathSegment(id) + "/delete", csrf: context.csrf,
        etag: page.etag,
        attributes: " data-confirm=\"\(HTML.escape(text.confirmDeleteReminder))\"",
        "<button class=\"danger card\">\(HTML.escape(text.deleteReminder))</button>")
    }
    return Layout.document(
      title: title, lang: context.language.htmlLang, body: body,
      ring: ringPanel(nil, context.csrf, text))
  }

  /// The photo of a reminder being edited: shown, replaced by a file from the phone (its
  /// camera or gallery), or removed. Forms of their own: the upload is multipart.
  private static func photoCard(
    id: String, _ page: ReminderEditPage, _ context: PageContext, _ text: WebText
  ) -> String {
    let base = "/reminders/" + HTML.pathSegment(id) + "/photo"
    var s = "<div class=\"card stack\"><p class=\"note\">\(HTML.escape(text.photo))</p>"
    if page.hasPhoto {
      s += "<img class=\"photo big\" src=\"\(base)\" alt=\"\(HTML.escape(text.photo))\">"
    }
    s += HTML.form(
      action: base, csrf: context.csrf, etag: page.etag,
      attributes: " enctype=\"multipart/form-data\" class=\"row\"",
      "<input type=\"file\" name=\"photo\" accept=\"image/jpeg,image/png,image/gif,image/webp\""
        + " required><button>\(HTML.escape(page.hasPhoto ? text.replacePhoto : text.addPhoto))</button>"
    )
    if page.hasPhoto {
      s += HTML.form(
        action: base + "/delete", csrf: context.csrf, etag: page.etag,
        "<button class=\"link\">\(HTML.escape(text.removePhoto))</button>")
    }
    return s + "</div>"
  }

  /// Which screen the tabs mark as current.
  enum Screen { case alarms, reminders }

  /// The two screens, as the seeds' app switches between them.
  static func tabs(_ current: Screen, _ text: WebText) -> String {
    func tab(_ screen: Screen, _ href: String, _ name: String) -> String {
      let here = screen == current ? " aria-current=\"page\"" : ""
      return "<a href=\"\(href)\"\(here)>\(HTML.escape(name))</a>"
    }
    return "<nav class=\"tabs\">" + tab(.alarms, "/", text.alarms)
      + tab(.reminders, "/reminders", text.reminders) + "</nav>"
  }

  private static func reminderRow(
    _ r: Reminder, first: Bool, last: Bool, _ page: RemindersPage, _ csrf: String,
    _ text: WebText, _ words: ReminderText
  ) -> String {
    let base = "/reminders/" + HTML.pathSegment(r.id)
    let rowID = "reminder-" + HTML.escape(r.id)
    var s = "<li id=\"\(rowID)\"\(r.done ? " class=\"done\"" : "")>"
    s += HTML.form(
      action: base + (r.done ? "/undone" : "/done"), csrf: csrf, etag: page.etag,
      "<button class=\"tick\" role=\"checkbox\" aria-checked=\"\(r.done)\""
        + " aria-labelledby=\"\(rowID)-t\"></button>")
    s += "<div class=\"main\"><a href=\"\(base)\">"
    s += "<div class=\"title\" id=\"\(rowID)-t\">\(HTML.escape(r.title))</div>"
    var sub: [String] = []
    if let due = r.due {
      sub.append(words.due(due, today: page.today, done: r.done))
    }
    if let notes = r.notes, let line = notes.split(separator: "\n").first {
      sub.append(String(line))
    }
    if !sub.isEmpty { s += "<div class=\"sub\">\(HTML.escape(sub.joined(separator: " · ")))</div>" }
    if r.photo != nil {
      s += "<img class=\"photo\" src=\"\(base)/photo\" alt=\"\" loading=\"lazy\">"
    }
    s += "</a></div><div class=\"order\">"
    s += HTML.form(
      action: base + "/up", csrf: csrf, etag: page.etag,
      "<button class=\"move\" aria-label=\"\(HTML.escape(text.moveUp))\"\(first ? " disabled" : "")>▲</button>"
    )
    s += HTML.form(
      action: base + "/down", csrf: csrf, etag: page.etag,
      "<button class=\"move\" aria-label=\"\(HTML.escape(text.moveDown))\"\(last ? " disabled" : "")>▼</button>"
    )
    return s + "</div></li>"
  }
}
