import AlarmClient
import AlarmCore
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmWeb

/// `/api/reminders` without sockets, on real files: the replies are the objects
/// `remind list --json` prints, every refusal leaves the list byte-identical.
@Suite struct WebReminderTests {
  static let list = """
    # morning
    [[reminder]]
    id = "bins"
    title = "Take the bins out"
    due = 2026-12-07T07:30:00

    [[reminder]]
    id = "dentist"
    title = "Dentist at 10"
    due = 2026-12-08
    notes = "Bring the card."

    """

  struct Fixture {
    let dir: TempDir
    let app: WebApp
    var path: String { dir.file("reminders.toml") }
    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    init(list: String? = WebReminderTests.list) throws {
      dir = try TempDir("webreminders")
      app = try WebAppTests.app(dir)
      if let list {
        try list.write(toFile: dir.file("reminders.toml"), atomically: true, encoding: .utf8)
      }
    }

    func send(_ method: String, _ path: String, _ body: String? = nil, ifMatch: String? = nil)
      -> WebResponse
    {
      var headers = WebAppTests.bearer
      if let ifMatch { headers["If-Match"] = ifMatch }
      return app.respond(
        WebRequest(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
    }

    func json(_ r: WebResponse) throws -> Any {
      try JSONSerialization.jsonObject(with: Data(r.body))
    }
  }

  @Test func listAddEditMoveTickAndRemove() throws {
    let f = try Fixture()
    let list = f.send("GET", "/api/reminders")
    #expect(list.status == 200)
    #expect(list.header("ETag") == ConfigStore.etag(of: Array(Self.list.utf8)))
    let items = try #require(try f.json(list) as? [[String: Any]])
    #expect(items.map { $0["id"] as? String } == ["bins", "dentist"])
    #expect(items[1]["notes"] as? String == "Bring the card.")
    #expect(items[1]["position"] as? Int == 2)

    let add = f.send(
      "POST", "/api/reminders", #"{"title":"Buy milk","due":"2026-12-09T18:00","position":1}"#)
    #expect(add.status == 201, "\(String(decoding: add.body, as: UTF8.self))")
    #expect(add.header("Location") == "/api/reminders/buy-milk")
    let added = try #require(try f.json(add) as? [String: Any])
    #expect(added["due"] as? String == "2026-12-09T18:00:00")
    #expect(added["position"] as? Int == 1)
    #expect(add.header("ETag") == ConfigStore.etag(of: Array(f.text.utf8)))
    // The comment right above the first block is that block's: it moves down with it.
    #expect(f.text.hasPrefix("[[reminder]]\nid = \"buy-milk\""))
    #expect(f.text.contains("\n\n# morning\n[[reminder]]\nid = \"bins\""))

    let patch = f.send(
      "PATCH", "/api/reminders/dentist", #"{"notes":null,"due":null,"title":"Dentist at 11"}"#)
    #expect(patch.status == 200)
    let patched = try #require(try f.json(patch) as? [String: Any])
    #expect(patched["title"] as? String == "Dentist at 11")
    #expect(patched["notes"] is NSNull && patched["due"] is NSNull)
    #expect(!f.text.contains("Bring the card"))

    let done = f.send("POST", "/api/reminders/bins/done")
    #expect(done.status == 200)
    #expect((try f.json(done) as? [String: Any])?["done"] as? Bool == true)
    let undone = f.send("POST", "/api/reminders/bins/undone")
    #expect((try f.json(undone) as? [String: Any])?["done"] as? Bool == false)

    let move = f.send("PATCH", "/api/reminders/buy-milk", #"{"position":3}"#)
    #expect(move.status == 200)
    #expect((try f.json(move) as? [String: Any])?["position"] as? Int == 3)

    let delete = f.send("DELETE", "/api/reminders/bins")
    #expect(delete.status == 204)
    #expect(!f.text.contains("bins"))
  }

  @Test func refusalsLeaveTheListByteIdentical() throws {
    let f = try Fixture()
    let cases: [(String, String, String?, Int, String)] = [
      ("POST", "/api/reminders", #"{"due":"2026-12-09"}"#, 400, "a new reminder needs a title"),
      ("POST", "/api/reminders", #"{"title":"x","titel":"y"}"#, 400, "did you mean 'title'?"),
      ("POST", "/api/reminders", #"{"title":"two\nlines"}"#, 400, "title must be one line"),
      (
        "POST", "/api/reminders", #"{"title":"x","due":"2026-02-30"}"#, 400,
        "due 2026-02-30 does not exist"
      ),
      ("POST", "/api/reminders", #"{"title":"x","due":"2026-12-09T07:00Z"}"#, 400, "due is local"),
      ("POST", "/api/reminders", #"{"title":"x","id":"bins"}"#, 400, "already used"),
      ("PATCH", "/api/reminders/bins", #"{"title":null}"#, 400, "title cannot be null"),
      ("PATCH", "/api/reminders/bins", #"{"done":"yes"}"#, 400, "done wants true or false"),
      ("PATCH", "/api/reminders/bins", #"{"position":0}"#, 400, "position wants a whole number"),
      ("PATCH", "/api/reminders/bin", #"{"title":"x"}"#, 404, "did you mean 'bins'?"),
      ("POST", "/api/reminders/nope/done", nil, 404, "no reminder has the id 'nope'"),
    ]
    for (method, path, body, status, message) in cases {
      let r = f.send(method, path, body)
      let text = String(decoding: r.body, as: UTF8.self)
      #expect(r.status == status, "\(method) \(path) \(body ?? ""): \(text)")
      #expect(text.contains(message), "\(method) \(path) \(body ?? ""): \(text)")
      #expect(f.text == Self.list)
    }
    let stale = f.send("POST", "/api/reminders/bins/done", ifMatch: "\"0\"")
    #expect(stale.status == 409)
    #expect(f.text == Self.list)
    let current = ConfigStore.etag(of: Array(Self.list.utf8))
    #expect(f.send("POST", "/api/reminders/bins/done", ifMatch: current).status == 200)
  }

  @Test func aListWithErrorsIsReportedNotEdited() throws {
    let broken = "[[reminder]]\ntitle = \"A\"\ndue = \"soon\"\n"
    let f = try Fixture(list: broken)
    let list = f.send("GET", "/api/reminders")
    #expect(list.status == 409)
    let body = try #require(try f.json(list) as? [String: [String: Any]])
    #expect(body["error"]?["code"] as? String == "reminders-invalid")
    let details = body["error"]?["details"] as? [String] ?? []
    #expect(
      details.contains {
        $0.hasSuffix(
          "reminders.toml:3:7: 'due' must be a date like 2026-12-04 or a local date and time like 2026-12-04T07:30, not \"soon\""
        )
      })
    #expect(f.send("POST", "/api/reminders", #"{"title":"x"}"#).status == 409)
    #expect(f.text == broken)
  }

  @Test func anUnwrittenListIsEmptyAndTheFirstAddCreatesIt() throws {
    let f = try Fixture(list: nil)
    let list = f.send("GET", "/api/reminders")
    #expect(list.status == 200)
    let items = try f.json(list) as? [Any]
    #expect(items?.isEmpty == true)
    let add = f.send("POST", "/api/reminders", #"{"title":"倒垃圾"}"#)
    #expect(add.status == 201)
    #expect(f.text == "[[reminder]]\nid = \"reminder\"\ntitle = \"倒垃圾\"\n")
  }

  /// A reminder's photo: served from reminder-photos/ beside the list with its image type,
  /// shown on its row; a file that is not an image is never served.
  @Test func photosAreServedOnlyAsImages() throws {
    let list =
      Self.list.replacingOccurrences(
        of: "notes = \"Bring the card.\"", with: "notes = \"Bring the card.\"\nphoto = \"card.png\""
      )
      + "[[reminder]]\nid = \"page\"\ntitle = \"Page\"\nphoto = \"page.png\"\n"
    let f = try Fixture(list: list)
    let photos = f.dir.file("reminder-photos")
    try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    let png: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 40)
    try Data(png).write(to: URL(fileURLWithPath: photos + "/card.png"))
    try "<script>alert(1)</script>".write(
      toFile: photos + "/page.png", atomically: true, encoding: .utf8)
    let access = WebAccess(token: "sesame\n")
    let cookie = ["Cookie": "\(WebAccess.cookieName)=\(access.newSession(now: WebAppTests.now))"]
    func get(_ path: String) -> WebResponse {
      f.app.respond(WebRequest(method: "GET", path: path, headers: cookie))
    }
    let photo = get("/reminders/dentist/photo")
    #expect(photo.status == 200)
    #expect(photo.header("Content-Type") == "image/png")
    #expect(photo.body == png)
    #expect(photo.header("X-Content-Type-Options") == "nosniff")
    let html = get("/reminders/page/photo")
    #expect(html.status == 415)
    #expect(!String(decoding: html.body, as: UTF8.self).contains("<script>alert"))
    #expect(get("/reminders/bins/photo").status == 404)
    let page = get("/reminders")
    let text = String(decoding: page.body, as: UTF8.self)
    #expect(text.contains("<img class=\"photo\" src=\"/reminders/dentist/photo\""))
    #expect(page.header("Content-Security-Policy")?.contains("img-src 'self' data:") == true)
  }
}
