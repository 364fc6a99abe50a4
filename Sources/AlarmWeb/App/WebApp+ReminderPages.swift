import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmWebPage

/// The reminder screen's routes: `GET /reminders`, `/reminders/new`, `/reminders/ID`, and
/// the forms `POST /reminders` (add), `/reminders/ID` (save) and
/// `/reminders/ID/{done,undone,up,down,delete}`, answered with a 303 to `/reminders`.
extension WebApp {
  /// The reply for a reminder route, or nil when `parts` is not one.
  func reminderPage(_ method: String, _ parts: [String], _ form: FormData?, _ page: PageContext)
    -> WebResponse?
  {
    guard parts.first == "reminders" else { return nil }
    if method == "GET" || method == "HEAD" {
      if parts == ["reminders"] { return remindersPage(page) }
      if parts == ["reminders", "new"] {
        return reminderForm(id: nil, form: nil, errors: [], page)
      }
      if let id = Self.match("reminders/*", parts) {
        return reminderForm(id: id, form: nil, errors: [], page)
      }
      if let id = Self.match("reminders/*/photo", parts) { return reminderPhoto(id, page) }
      return nil
    }
    guard let form else { return nil }
    let etag = form["etag"]
    if parts.count == 4, parts[2] == "photo", parts[3] == "delete" {
      return pageResult(reminders.removePhoto(id: parts[1], ifMatch: etag), page)
    }
    if parts == ["reminders"] { return saveReminder(id: nil, form, page) }
    if let id = Self.match("reminders/*", parts) { return saveReminder(id: id, form, page) }
    guard parts.count == 3 else { return nil }
    let id = parts[1]
    switch parts[2] {
    case "done": return reminderEdit(.setDone(id: id, true), etag: etag, page)
    case "undone": return reminderEdit(.setDone(id: id, false), etag: etag, page)
    case "delete": return pageResult(reminders.remove(id: id, ifMatch: etag), page)
    case "photo":
      guard let file = form.files["photo"] else {
        return errorPage(400, "choose a photo to upload", page)
      }
      return pageResult(reminders.setPhoto(id: id, bytes: file.bytes, ifMatch: etag), page)
    case "up", "down":
      let read: (list: ReminderList, etag: String)
      switch reminders.list() {
      case .failure(let e): return errorPage(Self.status(e), e.description, page)
      case .success(let r): read = r
      }
      guard let i = read.list.index(of: id) else {
        let e = reminders.explain(ReminderEditor.unknown(id, read.list))
        return errorPage(Self.status(e), e.message, page)
      }
      let to = parts[2] == "up" ? max(1, i) : i + 2
      return reminderEdit(.move(id: id, position: to), etag: etag, page)
    default: return nil
    }
  }

  /// A reminder's photo from the photo directory beside the list, when it is an image.
  private func reminderPhoto(_ id: String, _ page: PageContext) -> WebResponse {
    guard case .success(let read) = reminders.list(), let r = read.list.reminder(id: id),
      let name = r.photo
    else {
      return errorPage(404, "no photo for the reminder '\(id)'", page)
    }
    // The decoder allows plain file names only: no directory, no dot first.
    let path = ReminderList.photoDirectory(forList: reminders.path) + "/" + name
    guard let bytes = try? FileSystem.readFile(path, limit: ReminderPhoto.maxBytes) else {
      return errorPage(404, "the photo \(name) cannot be read", page)
    }
    guard let type = ReminderPhoto.mediaType(of: bytes) else {
      return errorPage(415, "\(name) is not a JPEG, PNG, GIF or WebP image", page)
    }
    return WebResponse(status: 200, headers: [("Content-Type", type)], body: bytes)
  }

  /// Today where the alarms ring: the config's zone, else the system's.
  private var today: LocalDate {
    let zone = configView().loaded?.zone ?? ZoneLoader.system(environment: setup.environment)
    return zone.local(at: setup.now()).date
  }

  private func remindersPage(_ page: PageContext) -> WebResponse {
    switch reminders.read() {
    case .failure(let e): return errorPage(Self.status(e), e.description, page)
    case .success(let read):
      let shown = RemindersPage(
        reminders: read.list.list?.reminders ?? [], etag: read.etag, today: today,
        errors: read.list.list == nil ? read.list.formatted : [])
      return .html(WebPage.reminders(shown, page))
    }
  }

  private func reminderForm(
    id: String?, form: ReminderForm?, errors: [String], _ page: PageContext, status: Int = 200
  ) -> WebResponse {
    let read: (list: ReminderList, etag: String)
    switch reminders.list() {
    case .failure(let e): return errorPage(Self.status(e), e.description, page)
    case .success(let r): read = r
    }
    var shown = form ?? ReminderForm()
    if let id, form == nil {
      guard let r = read.list.reminder(id: id) else {
        let e = reminders.explain(.unknownReminder(id: id, nearMatches: [], ids: []))
        return errorPage(404, e.message, page)
      }
      shown = ReminderForm(r)
    }
    let photo = id.flatMap { read.list.reminder(id: $0)?.photo } != nil
    let edit = ReminderEditPage(
      id: id, form: shown, etag: read.etag, errors: errors, hasPhoto: photo)
    return .html(WebPage.reminderEdit(edit, page), status: status)
  }

  private func saveReminder(id: String?, _ f: FormData, _ page: PageContext) -> WebResponse {
    let posted = ReminderForm(
      title: f["title"] ?? "", dueDate: f["due_date"] ?? "", dueTime: f["due_time"] ?? "",
      notes: f["notes"] ?? "")
    var changes = ReminderChanges()
    var errors: [String] = []
    func take(_ key: ReminderKey, _ text: String, _ name: String) {
      switch key.parse(text) {
      case .success(let v): changes.values[key] = v
      case .failure(let e): errors.append("\(name) \(e)")
      }
    }
    take(.title, posted.title, "title")
    let date = posted.dueDate.trimmingWhitespace
    let time = posted.dueTime.trimmingWhitespace
    if date.isEmpty {
      if !time.isEmpty { errors.append("a due time needs a due date") }
      if id != nil { changes.unset.insert(.due) }
    } else {
      take(.due, time.isEmpty ? String(date) : "\(date)T\(time)", "due")
    }
    // Browsers send a textarea's line ends as CRLF.
    let notes = posted.notes.replacingCRLF
    if notes.trimmingWhitespace.isEmpty {
      if id != nil { changes.unset.insert(.notes) }
    } else {
      take(.notes, notes, "notes")
    }
    guard errors.isEmpty else {
      return reminderForm(id: id, form: posted, errors: errors, page, status: 400)
    }
    let edit: ReminderEdit = id.map { .edit(id: $0, changes) } ?? .add(changes)
    switch reminders.apply(edit, ifMatch: f["etag"]) {
    case .success: return .redirect("/reminders")
    case .failure(let e) where e.kind == .invalidValue:
      return reminderForm(id: id, form: posted, errors: [e.message] + e.details, page, status: 400)
    case .failure(let e): return errorPage(Self.status(e), e.description, page)
    }
  }

  private func reminderEdit(_ edit: ReminderEdit, etag: String?, _ page: PageContext)
    -> WebResponse
  {
    pageResult(reminders.apply(edit, ifMatch: etag), page)
  }

  /// Back to the list after an edit, or the page that says why it was refused.
  private func pageResult(_ result: Result<ReminderStore.Outcome, ClientError>, _ page: PageContext)
    -> WebResponse
  {
    switch result {
    case .success: return .redirect("/reminders")
    case .failure(let e): return errorPage(Self.status(e), e.description, page)
    }
  }
}

extension String {
  /// The text with CRLF and lone CR line ends made LF.
  fileprivate var replacingCRLF: String {
    var out = ""
    var lastCR = false
    for s in unicodeScalars {
      if s == "\r" {
        out += "\n"
        lastCR = true
        continue
      }
      if s == "\n" && lastCR {
        lastCR = false
        continue
      }
      lastCR = false
      out.unicodeScalars.append(s)
    }
    return out
  }
}
