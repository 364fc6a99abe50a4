import AlarmCore

/// The HTML pages of `alarmclock web`, rendered as complete documents from plain inputs.
///
/// Each page is self-contained (inline CSS, a little inline JavaScript, no external
/// requests), works without JavaScript (every action is a form), and escapes every value
/// it shows. Routes and form fields follow docs/http.md.
public enum WebPage {
  /// The alarm list: ringing panel, next alarm, config errors, one row per alarm (sorted by
  /// time, then id, as `list`) with its on/off switch, skip-next and a link to its edit form.
  public static func list(_ page: ListPage, _ context: PageContext) -> String {
    let text = WebText(context.language)
    var body = "<header><h1>\(HTML.escape(text.alarms))</h1>"
    body +=
      "<a class=\"btn plus\" href=\"/alarms/new\" aria-label=\"\(HTML.escape(text.add))\">+</a>"
    body += "</header>"
    body += tabs(.alarms, text)
    body += problems(page.configErrors, heading: text.configErrors, page.serviceProblem, text)
    body += "<p class=\"card\" id=\"next\">"
    if let n = page.next {
      let what = text.alarm.firing(
        date: n.date, time: n.time, label: n.label ?? text.alarm.defaultLabel, until: n.until)
      body += HTML.escape(text.next + what)
    } else {
      body += HTML.escape(text.noNext)
    }
    body += "</p>"
    let rows = page.alarms.sorted { ($0.alarm.time, $0.alarm.id) < ($1.alarm.time, $1.alarm.id) }
    if rows.isEmpty {
      body += "<p class=\"card note\">\(HTML.escape(text.noAlarms))</p>"
    } else {
      body += "<ul class=\"list\">"
      for row in rows { body += alarmRow(row, etag: page.etag, context.csrf, text) }
      body += "</ul>"
    }
    body += logoutForm(context.csrf, text)
    return Layout.document(
      title: text.alarms, lang: context.language.htmlLang, body: body,
      ring: ringPanel(page.session, context.csrf, text))
  }

  /// The add or edit form, with delete and "play on the device" when editing.
  public static func edit(_ page: EditPage, _ context: PageContext) -> String {
    let text = WebText(context.language)
    let title = page.id == nil ? text.add : text.edit
    var body = "<header><a class=\"btn link\" href=\"/\">\(HTML.escape(text.cancel))</a>"
    body += "<h1>\(HTML.escape(title))</h1><span></span></header>"
    body += problems(page.errors, nil, text)
    let action = page.id.map { "/alarms/" + HTML.pathSegment($0) } ?? "/alarms"
    body += HTML.form(
      action: action, csrf: context.csrf, etag: page.etag, attributes: " class=\"stack\"",
      AlarmFormView.fields(page, text)
        + "<button class=\"primary\">\(HTML.escape(text.save))</button>")
    if let id = page.id {
      let base = "/alarms/" + HTML.pathSegment(id)
      body += "<div class=\"card stack\">"
      body += HTML.form(
        action: base + "/ring", csrf: context.csrf,
        "<button class=\"wide\">\(HTML.escape(text.playOnDevice))</button>")
      body += "<p class=\"note\">\(HTML.escape(text.playHint))</p></div>"
      body += HTML.form(
        action: base + "/delete", csrf: context.csrf, etag: page.etag,
        attributes: " data-confirm=\"\(HTML.escape(text.confirmDelete))\"",
        "<button class=\"danger card\">\(HTML.escape(text.delete))</button>")
    }
    return Layout.document(
      title: title, lang: context.language.htmlLang, body: body,
      ring: ringPanel(nil, context.csrf, text))
  }

  /// The login form.
  public static func login(_ page: LoginPage, _ context: PageContext) -> String {
    let text = WebText(context.language)
    var body = "<header><h1>\(HTML.escape(text.alarms))</h1></header>"
    if page.failed {
      body += "<div class=\"card box bad\" role=\"alert\">\(HTML.escape(text.loginFailed))</div>"
    }
    body += HTML.form(
      action: "/login", csrf: context.csrf, attributes: " class=\"card stack\"",
      "<label class=\"row\">\(HTML.escape(text.token))"
        + "<input type=\"password\" name=\"token\" required autocomplete=\"current-password\""
        + " autofocus></label><button class=\"primary\">\(HTML.escape(text.logIn))</button>")
    body += "<p class=\"note\">\(HTML.escape(text.loginHint))</p>"
    return Layout.document(title: text.logIn, lang: context.language.htmlLang, body: body)
  }

  /// An error page with a title for `status`, the message and a link back.
  public static func error(_ page: ErrorPage, _ context: PageContext) -> String {
    let text = WebText(context.language)
    let title = text.errorTitle(page.status)
    var body = "<header><h1>\(page.status)</h1></header>"
    body +=
      "<div class=\"card box bad\" role=\"alert\"><p><strong>\(HTML.escape(title))</strong></p>"
    if !page.message.isEmpty { body += "<p class=\"sub\">\(HTML.escape(page.message))</p>" }
    body += "</div><a class=\"btn wide\" href=\"\(HTML.escape(page.back))\">"
    body += "\(HTML.escape(text.back))</a>"
    return Layout.document(title: title, lang: context.language.htmlLang, body: body)
  }

  // MARK: - Parts

  /// One list row: time, label and repeat summary linking to the edit form; skip-next; the
  /// switch (a one-button form, so it works without JavaScript).
  private static func alarmRow(_ row: AlarmRow, etag: String, _ csrf: String, _ text: WebText)
    -> String
  {
    let a = row.alarm
    let on = a.enabled && !row.done
    let base = "/alarms/" + HTML.pathSegment(a.id)
    let rowID = "alarm-" + HTML.escape(a.id)
    var s = "<li id=\"\(rowID)\"\(on ? "" : " class=\"off\"")>"
    s += "<div class=\"main\"><a id=\"\(rowID)-t\" href=\"\(base)\">"
    s += "<div class=\"time\">\(clock(a.time, text))</div>"
    var sub = text.alarm.label(a) + text.comma + text.alarm.summary(a)
    if row.done { sub += " · " + text.alarm.done }
    s += "<div class=\"sub\">\(HTML.escape(sub))</div></a>"
    // Skipping is a request to the service, not an edit of the file: no etag.
    if let date = row.skippedDate {
      s += HTML.form(
        action: base + "/unskip", csrf: csrf,
        "<span class=\"note\">\(HTML.escape(text.skipped + " " + text.alarm.date(date)))</span> "
          + "<button class=\"skip\">\(HTML.escape(text.unskip))</button>")
    } else if on {
      s += HTML.form(
        action: base + "/skip", csrf: csrf,
        "<button class=\"skip\">\(HTML.escape(text.skipNext))</button>")
    }
    s += "</div>"
    s += HTML.form(
      action: base + (on ? "/disable" : "/enable"), csrf: csrf, etag: etag,
      "<button class=\"switch\" role=\"switch\" aria-checked=\"\(on)\""
        + " aria-labelledby=\"\(rowID)-t\"></button>")
    return s + "</li>"
  }

  private static func logoutForm(_ csrf: String, _ text: WebText) -> String {
    HTML.form(
      action: "/logout", csrf: csrf, "<button class=\"link\">\(HTML.escape(text.logOut))</button>")
  }

  /// A wall time with the 上午/下午 prefix smaller, as the phone app shows it.
  private static func clock(_ time: LocalTime, _ text: WebText) -> String {
    let shown = text.alarm.time(time)
    guard let space = shown.firstIndex(of: " ") else { return HTML.escape(shown) }
    return "<small>\(HTML.escape(String(shown[..<space])))</small>"
      + HTML.escape(String(shown[shown.index(after: space)...]))
  }

  /// Config errors or a refused post (red), and a service that did not answer (orange).
  private static func problems(
    _ errors: [String], heading: String? = nil, _ service: String?, _ text: WebText
  ) -> String {
    var s = ""
    if !errors.isEmpty {
      s += "<div class=\"card box bad\" role=\"alert\" id=\"errors\">"
      if let heading { s += "<strong>\(HTML.escape(heading))</strong>" }
      s += "<ul>" + errors.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul></div>"
    }
    if let service {
      s += "<div class=\"card box\" role=\"status\" id=\"service\"><strong>"
      s += "\(HTML.escape(text.serviceDown))</strong> \(HTML.escape(service))</div>"
    }
    return s
  }

  /// The ringing panel: big Snooze and Stop while ringing, Stop while snoozed. Always
  /// present (hidden when nothing rings) so the script can show it when a ring starts.
  static func ringPanel(_ session: SessionStatus?, _ csrf: String, _ text: WebText)
    -> String
  {
    let snoozed = session?.state == .snoozed
    var s = "<section id=\"ring\" role=\"alert\""
    s += " data-until=\"\(HTML.escape(text.ringsUntil))\""
    s += " data-snoozed=\"\(HTML.escape(text.snoozedUntil))\""
    s += snoozed ? " class=\"snoozed\"" : ""
    s += session == nil ? " hidden>" : ">"
    let what = session.map { $0.label ?? $0.id } ?? text.ringing
    s += "<p id=\"ring-what\">\(HTML.escape(what))</p>"
    // HH:MM of the ISO instant, as the script shows it after a poll.
    let until = session.map { String($0.until.dropFirst(11).prefix(5)) } ?? ""
    let when = session == nil ? "" : (snoozed ? text.snoozedUntil : text.ringsUntil) + " " + until
    s += "<p id=\"ring-when\">\(HTML.escape(when))</p><div class=\"big\">"
    s += HTML.form(
      action: "/snooze", csrf: csrf, attributes: " class=\"snz\"",
      "<button>\(HTML.escape(text.snooze))</button>")
    s += HTML.form(action: "/stop", csrf: csrf, "<button>\(HTML.escape(text.stop))</button>")
    return s + "</div></section>"
  }
}
