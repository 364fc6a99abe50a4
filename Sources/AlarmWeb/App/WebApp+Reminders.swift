import AlarmClient
import AlarmCore

/// The reminder list's API routes under `/api/reminders` (docs/http.md).
extension WebApp {
  static let reminderRoutes: [APIRoute] = [
    APIRoute(method: "GET", pattern: "reminders") { app, _, _ in app.listReminders() },
    APIRoute(method: "POST", pattern: "reminders") { app, request, _ in
      app.changeReminder(nil, request)
    },
    APIRoute(method: "PATCH", pattern: "reminders/*") { app, request, id in
      app.changeReminder(id, request)
    },
    APIRoute(method: "DELETE", pattern: "reminders/*") { app, request, id in
      app.reminderResult(
        app.reminders.remove(id: id, ifMatch: request.header("if-match")), status: 204)
    },
    APIRoute(method: "PUT", pattern: "reminders/*/photo") { app, request, id in
      app.reminderResult(
        app.reminders.setPhoto(id: id, bytes: request.body, ifMatch: request.header("if-match")),
        status: 200)
    },
    APIRoute(method: "DELETE", pattern: "reminders/*/photo") { app, request, id in
      app.reminderResult(
        app.reminders.removePhoto(id: id, ifMatch: request.header("if-match")), status: 200)
    },
    APIRoute(method: "POST", pattern: "reminders/*/done") { app, request, id in
      app.editReminders(.setDone(id: id, true), request, status: 200)
    },
    APIRoute(method: "POST", pattern: "reminders/*/undone") { app, request, id in
      app.editReminders(.setDone(id: id, false), request, status: 200)
    },
  ]

  /// The body a request may send, from its head alone: a photo upload (`PUT
  /// /api/reminders/ID/photo`, `POST /reminders/ID/photo`) by a caller with the token or a
  /// session may send a photo and a form's worth more; anything else `otherwise`.
  public func bodyLimit(_ head: WebRequest, otherwise: Int) -> Int {
    let parts = head.path.split(separator: "/").map(String.init)
    let upload =
      (head.method == "PUT" && Self.match("api/reminders/*/photo", parts) != nil)
      || (head.method == "POST" && Self.match("reminders/*/photo", parts) != nil)
    guard upload else { return otherwise }
    let known = access.bearer(head) == true || access.session(head, now: setup.now()) != nil
    return known ? ReminderPhoto.maxBytes + otherwise : otherwise
  }

  /// Every reminder, done ones too, in list order, with the list's ETag.
  private func listReminders() -> WebResponse {
    switch reminders.list() {
    case .failure(let e): return Self.failure(e)
    case .success(let read):
      var r = WebResponse.json(read.list.json(all: true))
      r.headers.append(("ETag", read.etag))
      return r
    }
  }

  /// POST (a new reminder, `id` nil) or PATCH: the fields, then the position when given.
  private func changeReminder(_ id: String?, _ request: WebRequest) -> WebResponse {
    let changes: ReminderChanges
    let position: Int?
    do {
      (changes, position) = try ReminderInput.changes(request.body)
    } catch {
      return .error(400, "invalid-value", error.message)
    }
    if id == nil, changes.values[.title] == nil {
      return .error(
        400, "invalid-value",
        "a new reminder needs a title, e.g. {\"title\": \"Take the bins out\"}")
    }
    if changes.isEmpty && position == nil {
      return .error(400, "invalid-value", "nothing to change: give a field such as title")
    }
    // The fields, then the move: two edits, the move on the list as the first left it.
    var ifMatch = request.header("if-match")
    var last: ReminderStore.Outcome?
    if !changes.isEmpty {
      switch reminders.apply(id.map { .edit(id: $0, changes) } ?? .add(changes), ifMatch: ifMatch) {
      case .failure(let e): return Self.failure(e)
      case .success(let outcome):
        last = outcome
        ifMatch = outcome.etag
      }
    }
    if let position, let target = last?.result.id ?? id {
      switch reminders.apply(.move(id: target, position: position), ifMatch: ifMatch) {
      case .failure(let e): return Self.failure(e)
      case .success(let outcome): last = outcome
      }
    }
    guard let last else { return .error(500, "internal", "nothing was edited") }
    return reply(last, status: id == nil ? 201 : 200)
  }

  func editReminders(_ edit: ReminderEdit, _ request: WebRequest, status: Int) -> WebResponse {
    reminderResult(reminders.apply(edit, ifMatch: request.header("if-match")), status: status)
  }

  func reminderResult(_ result: Result<ReminderStore.Outcome, ClientError>, status: Int)
    -> WebResponse
  {
    switch result {
    case .failure(let e): return Self.failure(e)
    case .success(let outcome): return reply(outcome, status: status)
    }
  }

  /// The reminder's object as `remind list --json` prints it (nothing for a 204), the new
  /// ETag, and for a new one its Location.
  private func reply(_ outcome: ReminderStore.Outcome, status: Int) -> WebResponse {
    let list = outcome.result.list
    var r: WebResponse
    if status == 204 {
      r = WebResponse(status: 204, headers: [])
    } else if let i = list.index(of: outcome.result.id) {
      r = WebResponse.json(list.reminders[i].json(position: i + 1), status: status)
    } else {
      return .error(500, "internal", "the edited reminder is missing from the new list")
    }
    r.headers.append(("ETag", outcome.etag))
    if status == 201 { r.headers.append(("Location", "/api/reminders/" + outcome.result.id)) }
    return r
  }
}
