import AlarmClient
import AlarmCore

/// The JSON API under `/api/` (docs/http.md).
extension WebApp {
  func api(_ request: WebRequest) -> WebResponse {
    let caller: Caller
    switch authenticate(request) {
    case .caller(let c): caller = c
    case .refused(let r): return r
    }
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let method = request.method
    if case .session(let session) = caller, !["GET", "HEAD"].contains(method),
      !access.isCSRF(request.header("x-csrf-token"), for: session)
    {
      return .error(403, "csrf", "a change from the page needs the X-CSRF-Token header")
    }
    let route = Array(parts.dropFirst())
    // HEAD is GET without the body (libmicrohttpd drops it).
    let asked = method == "HEAD" ? "GET" : method
    var allowed: [String] = []
    for r in Self.apiRoutes {
      guard let captures = Self.captures(r.segments, route) else { continue }
      if r.method == asked { return r.handle(self, request, captures.first ?? "") }
      if !allowed.contains(r.method) { allowed.append(r.method) }
    }
    guard !allowed.isEmpty else {
      return .error(404, "not-found", "no API route /api/\(route.joined(separator: "/"))")
    }
    var r = WebResponse.error(
      405, "method-not-allowed",
      "\(method) is not allowed here; use \(allowed.joined(separator: " or "))")
    r.headers.append(("Allow", allowed.joined(separator: ", ")))
    return r
  }

  /// One API route: its method, its path under `/api/` (`*`: an alarm id), what answers it.
  struct APIRoute: Sendable {
    let method: String
    let pattern: String
    /// `pattern`'s segments, split once.
    let segments: [String]
    let handle: @Sendable (WebApp, WebRequest, String) -> WebResponse

    init(
      method: String, pattern: String,
      handle: @escaping @Sendable (WebApp, WebRequest, String) -> WebResponse
    ) {
      self.method = method
      self.pattern = pattern
      segments = pattern.split(separator: "/").map(String.init)
      self.handle = handle
    }
  }

  /// Every API route, once: the dispatcher and a 405's `Allow` both come from this table
  /// (docs/http.md lists the same).
  static let apiRoutes: [APIRoute] =
    [
      APIRoute(method: "GET", pattern: "alarms") { app, _, _ in app.listAlarms() },
      APIRoute(method: "POST", pattern: "alarms") { app, request, _ in
        app.editAlarm(request, status: 201) { .add($0) }
      },
      APIRoute(method: "PATCH", pattern: "alarms/*") { app, request, id in
        app.editAlarm(request, status: 200) { .edit(id: id, $0) }
      },
      APIRoute(method: "DELETE", pattern: "alarms/*") { app, request, id in
        app.removeAlarm(id, request)
      },
      APIRoute(method: "POST", pattern: "alarms/*/skip") { app, _, id in app.control(.skip(id: id))
      },
      APIRoute(method: "POST", pattern: "alarms/*/unskip") { app, _, id in
        app.control(.unskip(id: id))
      },
      APIRoute(method: "POST", pattern: "alarms/*/ring") { app, _, id in app.control(.ring(id: id))
      },
      APIRoute(method: "POST", pattern: "snooze") { app, _, _ in app.control(.snooze) },
      APIRoute(method: "POST", pattern: "stop") { app, _, _ in app.control(.stop) },
      APIRoute(method: "GET", pattern: "status") { app, _, _ in app.status() },
      APIRoute(method: "GET", pattern: "next") { app, request, _ in app.next(request) },
    ] + reminderRoutes

  /// The `*` segments of `pattern` when `parts` match it (segments separated by `/`);
  /// nil when they do not.
  static func captures(_ pattern: String, _ parts: [String]) -> [String]? {
    captures(pattern.split(separator: "/").map(String.init), parts)
  }

  /// The `*` segments of a pattern split into `want` when `parts` match it.
  static func captures(_ want: [String], _ parts: [String]) -> [String]? {
    guard want.count == parts.count else { return nil }
    var found: [String] = []
    for (w, p) in zip(want, parts) {
      if w == "*" { found.append(p) } else if w != p { return nil }
    }
    return found
  }

  /// The `*` segment of `pattern` when `parts` match it.
  static func match(_ pattern: String, _ parts: [String]) -> String? {
    captures(pattern, parts)?.first
  }

  private func listAlarms() -> WebResponse {
    let view = configView()
    let loaded: OfflineConfig
    switch view.usable {
    case .success(let l): loaded = l
    case .failure(let e): return Self.failure(e)
    }
    return cachedRead("alarms", view, loaded.config) {
      let listing = AlarmListing(loaded, stateDir: setup.stateDir, text: text, now: setup.now())
      var r = WebResponse.json(listing.json)
      r.headers.append(("ETag", view.etag))
      return r
    }
  }

  /// Alarm texts (labels, repeat summaries) in the web process's locale, as `list` prints.
  var text: AlarmText { AlarmText(DisplayLocale(environment: setup.environment)) }

  private func editAlarm(
    _ request: WebRequest, status: Int, _ edit: (AlarmChanges) -> ConfigEdit
  ) -> WebResponse {
    let changes: AlarmChanges
    do {
      changes = try AlarmInput.changes(request.body)
    } catch {
      return .error(400, "invalid-value", error.message)
    }
    if status == 201, changes.values[.time] == nil {
      return .error(400, "invalid-value", "a new alarm needs a time, e.g. {\"time\": \"06:45\"}")
    }
    if changes.isEmpty {
      return .error(400, "invalid-value", "nothing to change: give a field such as time")
    }
    switch store.apply(edit(changes), ifMatch: request.header("if-match")) {
    case .failure(let e): return Self.failure(e)
    case .success(let outcome):
      // The file as saved, with its calendars, for the same object `list --json` prints.
      guard let saved = configView().loaded,
        let alarm = saved.config.alarm(id: outcome.result.alarmID)
      else {
        return .error(500, "internal", "the edited alarm is missing from the new config")
      }
      let listing = AlarmListing(saved, stateDir: setup.stateDir, text: text, now: setup.now())
      var r = WebResponse.json(listing.json(alarm), status: status)
      r.headers.append(("ETag", outcome.etag))
      if status == 201 { r.headers.append(("Location", "/api/alarms/" + alarm.id)) }
      return r
    }
  }

  private func removeAlarm(_ id: String, _ request: WebRequest) -> WebResponse {
    switch store.apply(.remove(id: id), ifMatch: request.header("if-match")) {
    case .failure(let e): return Self.failure(e)
    case .success(let outcome):
      return WebResponse(status: 204, headers: [("ETag", outcome.etag)])
    }
  }

  /// Sends a request to the service; the reply's fields (without `ok`) as JSON.
  func control(_ request: ControlRequest) -> WebResponse {
    switch ServiceRequests.send(request, socket: setup.socketPath, timeout: setup.serviceTimeout) {
    case .failure(let e): return Self.failure(e)
    case .success(let payload): return .json(.object(payload.members))
    }
  }

  /// Exactly what `alarmclock status --json` prints.
  private func status() -> WebResponse {
    switch serviceStatus() {
    case .failure(let e): return Self.failure(e)
    case .success(let payload):
      return WebResponse(
        status: 200, headers: [("Content-Type", "application/json")],
        body: ControlReply.ok(payload).encodedLine())
    }
  }

  /// Exactly what `alarmclock next --json --count N` prints (the config and the state file).
  private func next(_ request: WebRequest) -> WebResponse {
    var count = 1
    if let text = request.queryValue("count") {
      let range = ControlRequest.nextCountRange
      guard let n = Int(text), range.contains(n) else {
        return .error(
          400, "invalid-value",
          "count wants a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
        )
      }
      count = n
    }
    let view = configView()
    let loaded: OfflineConfig
    switch view.usable {
    case .success(let l): loaded = l
    case .failure(let e): return Self.failure(e)
    }
    return cachedRead("next \(count)", view, loaded.config) {
      let marks = AlarmListing.savedMarks(loaded.config, stateDir: setup.stateDir)
      var r = WebResponse.json(
        UpcomingListing(loaded, after: setup.now(), count: count, marks: marks, text: text).json)
      r.headers.append(("ETag", view.etag))
      return r
    }
  }
}
