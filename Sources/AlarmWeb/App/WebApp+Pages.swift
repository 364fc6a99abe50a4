import AlarmClient
import AlarmCore
import AlarmWebPage

/// The page's routes: forms that work without JavaScript, answered with a 303 to `/` on
/// success (docs/http.md).
extension WebApp {
  func page(_ request: WebRequest) -> WebResponse {
    let context = PageContext(
      language: WebLanguage(acceptLanguage: request.header("accept-language")), csrf: "")
    let parts = request.path.split(separator: "/").map(String.init)
    if parts == ["login"] {
      if request.method == "POST" {
        return login(request, FormData(request.body)?["token"] ?? "", context)
      }
      if request.method == "GET" || request.method == "HEAD" {
        // A token in the query is not taken: it would reach logs and the history. The
        // link `--print-url` prints has it after `#`, which the page's script posts.
        return .html(WebPage.login(LoginPage(), context))
      }
      return notAllowed("GET, POST", context)
    }
    guard let session = access.session(request, now: setup.now()) else {
      if request.method == "GET" || request.method == "HEAD" { return .redirect("/login") }
      return errorPage(401, "log in first", context)
    }
    var page = context
    page.csrf = access.csrf(for: session)
    if request.method == "GET" || request.method == "HEAD" {
      if parts.isEmpty { return listPage(page) }
      if let r = reminderPage(request.method, parts, nil, page) { return r }
      if parts == ["alarms", "new"] {
        return editPage(id: nil, form: AlarmForm(), errors: [], page)
      }
      if let id = Self.match("alarms/*", parts) {
        return editPage(id: id, form: nil, errors: [], page)
      }
      return errorPage(404, "no page at \(request.path)", page)
    }
    guard request.method == "POST" else { return notAllowed("GET, POST", page) }
    let contentType = request.header("content-type") ?? ""
    let posted =
      contentType.lowercased().hasPrefix("multipart/form-data")
      ? MultipartForm(request.body, contentType: contentType)?.form : FormData(request.body)
    guard let form = posted else {
      return errorPage(400, "the form data is not valid form encoding", page)
    }
    guard access.isCSRF(form["csrf"], for: session) else {
      return errorPage(403, "the form's csrf field is missing or stale; reload the page", page)
    }
    if let r = reminderPage("POST", parts, form, page) { return r }
    return post(parts, form, page)
  }

  private func post(_ parts: [String], _ form: FormData, _ page: PageContext) -> WebResponse {
    let etag = form["etag"]
    switch parts {
    case ["logout"]:
      var r = WebResponse.redirect("/login")
      r.headers.append(("Set-Cookie", WebAccess.clearCookie))
      return r
    case ["snooze"]: return pageControl(.snooze, page)
    case ["stop"]: return pageControl(.stop, page)
    case ["alarms"]: return saveForm(id: nil, form, page)
    default: break
    }
    if let id = Self.match("alarms/*", parts) { return saveForm(id: id, form, page) }
    guard parts.count == 3, parts[0] == "alarms" else {
      return errorPage(404, "no form action at /\(parts.joined(separator: "/"))", page)
    }
    let id = parts[1]
    switch parts[2] {
    case "delete": return pageEdit(.remove(id: id), etag: etag, page)
    case "enable": return pageEdit(.enable(id: id), etag: etag, page)
    case "disable": return pageEdit(.disable(id: id), etag: etag, page)
    case "skip": return pageControl(.skip(id: id), page)
    case "unskip": return pageControl(.unskip(id: id), page)
    case "ring": return pageControl(.ring(id: id), page)
    default: return errorPage(404, "no form action at /\(parts.joined(separator: "/"))", page)
    }
  }

  private func login(_ request: WebRequest, _ token: String, _ context: PageContext)
    -> WebResponse
  {
    guard access.isToken(token) else {
      var r = WebResponse.html(WebPage.login(LoginPage(failed: true), context), status: 401)
      r.delay = throttle.failed()
      return r
    }
    throttle.succeeded()
    var r = WebResponse.redirect("/")
    r.headers.append(("Set-Cookie", WebAccess.setCookie(access.newSession(now: setup.now()))))
    return r
  }

  private func listPage(_ page: PageContext) -> WebResponse {
    let view = configView()
    var list = ListPage(alarms: [], etag: view.etag, configErrors: view.problems)
    if let loaded = view.loaded {
      let config = loaded.config
      let zone = loaded.zone
      // The service's skips count: a skipped occurrence shows on its row and is not "next".
      let marks = AlarmListing.savedMarks(config, stateDir: setup.stateDir)
      let done = AlarmListing.doneOneOffs(config, marks: marks)
      list.alarms = config.alarms.map {
        AlarmRow(alarm: $0, done: done.contains($0.id), skippedDate: marks.skipNext[$0.id])
      }
      let now = setup.now()
      if let f = UpcomingFiring.list(
        config.alarms, zone: zone, daysOff: loaded.daysOff(at: now), after: now, count: 1,
        marks: marks
      ).first, let alarm = config.alarm(id: f.id), let at = ISO8601Text.parse(f.at, in: zone),
        let local = ISO8601Text.localParts(f.at)
      {
        list.next = NextAlarm(
          id: alarm.id, label: alarm.label, date: local.date, time: local.time, until: at - now)
      }
    }
    switch serviceStatus() {
    case .success(.status(let report)): list.session = report.session
    case .success: break
    case .failure(let e): list.serviceProblem = e.message
    }
    return .html(WebPage.list(list, page))
  }

  func editPage(
    id: String?, form: AlarmForm?, errors: [String], _ page: PageContext, status: Int = 200
  )
    -> WebResponse
  {
    let view = configView()
    guard let config = view.config else {
      return errorPage(409, view.problems.joined(separator: "\n"), page)
    }
    var shown = form ?? AlarmForm(volume: config.defaults.volume)
    if let id, form == nil {
      guard let alarm = config.alarm(id: id) else {
        return errorPage(
          404, store.explain(.unknownAlarm(id: id, nearMatches: [], ids: [])).message, page)
      }
      shown = AlarmForm(alarm, defaults: config.defaults)
    }
    let edit = EditPage(
      id: id, form: shown, etag: view.etag, sounds: SoundCatalog.names(config), errors: errors,
      defaults: config.defaults)
    return .html(WebPage.edit(edit, page), status: status)
  }

  private func pageEdit(_ edit: ConfigEdit, etag: String?, _ page: PageContext) -> WebResponse {
    switch store.apply(edit, ifMatch: etag) {
    case .success: return .redirect("/")
    case .failure(let e): return errorPage(Self.status(e), e.description, page)
    }
  }

  private func pageControl(_ request: ControlRequest, _ page: PageContext) -> WebResponse {
    switch ServiceRequests.send(request, socket: setup.socketPath, timeout: setup.serviceTimeout) {
    case .success: return .redirect("/")
    case .failure(let e): return errorPage(Self.status(e), e.description, page)
    }
  }

  func errorPage(_ status: Int, _ message: String, _ page: PageContext) -> WebResponse {
    .html(WebPage.error(ErrorPage(status: status, message: message), page), status: status)
  }

  private func notAllowed(_ allowed: String, _ page: PageContext) -> WebResponse {
    var r = errorPage(405, "use \(allowed)", page)
    r.headers.append(("Allow", allowed))
    return r
  }
}
