import AlarmClient
import AlarmCore
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmWeb

/// Uploading a reminder's photo: from the page (a multipart form, as a phone's browser
/// sends it) and the API (`PUT /api/reminders/ID/photo`); replaced, removed, and gone with
/// its reminder, the files following the list; anything that is not an image refused with
/// the list byte-identical and no file left behind.
@Suite struct WebReminderPhotoTests {
  typealias Fixture = WebReminderTests.Fixture
  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("\r\n--x\r\n".utf8)
    + Array(repeating: 7, count: 300)
  static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 200)

  func photos(_ f: Fixture) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: f.dir.file("reminder-photos"))) ?? [])
      .sorted()
  }

  @Test func theAPIStoresReplacesAndRemovesAPhotoAndItsFile() throws {
    let f = try Fixture()
    let put = f.app.respond(
      WebRequest(
        method: "PUT", path: "/api/reminders/bins/photo", headers: WebAppTests.bearer,
        body: Self.png))
    #expect(put.status == 200, "\(String(decoding: put.body, as: UTF8.self))")
    let first = photos(f)
    #expect(first.count == 1 && first[0].hasPrefix("bins-") && first[0].hasSuffix(".png"))
    #expect(f.text.contains("photo = \"\(first[0])\""))
    #expect(f.text.hasPrefix("# morning\n"))
    let served = f.send("GET", "/api/reminders")
    #expect(String(decoding: served.body, as: UTF8.self).contains("\"photo\":\"\(first[0])\""))
    // Replaced: the new file, the old one gone.
    let again = f.app.respond(
      WebRequest(
        method: "PUT", path: "/api/reminders/bins/photo", headers: WebAppTests.bearer,
        body: Self.jpeg))
    #expect(again.status == 200)
    let second = photos(f)
    #expect(second.count == 1 && second[0].hasSuffix(".jpg") && second != first)
    // Not an image, or an unknown reminder: refused, the list and the files as they were.
    let before = f.text
    for (path, body) in [
      ("/api/reminders/bins/photo", Array("<html>".utf8)),
      ("/api/reminders/nobody/photo", Self.png),
    ] {
      let r = f.app.respond(
        WebRequest(method: "PUT", path: path, headers: WebAppTests.bearer, body: body))
      #expect(r.status == 400 || r.status == 404, "\(path): \(r.status)")
      #expect(f.text == before)
      #expect(photos(f) == second)
    }
    // Removed: the key and the file.
    #expect(f.send("DELETE", "/api/reminders/bins/photo").status == 200)
    #expect(photos(f).isEmpty)
    #expect(!f.text.contains("photo ="))
    // A reminder removed takes its photo with it.
    #expect(
      f.app.respond(
        WebRequest(
          method: "PUT", path: "/api/reminders/dentist/photo", headers: WebAppTests.bearer,
          body: Self.png)
      ).status == 200)
    #expect(photos(f).count == 1)
    #expect(f.send("DELETE", "/api/reminders/dentist").status == 204)
    #expect(photos(f).isEmpty)
  }

  @Test func thePageUploadsAPhotoAsAMultipartForm() throws {
    let f = try Fixture()
    let access = WebAccess(token: "sesame\n")
    let session = access.newSession(now: WebAppTests.now)
    let cookie = "\(WebAccess.cookieName)=\(session)"
    let edit = f.app.respond(
      WebRequest(method: "GET", path: "/reminders/bins", headers: ["Cookie": cookie]))
    let html = String(decoding: edit.body, as: UTF8.self)
    #expect(html.contains("enctype=\"multipart/form-data\""))
    #expect(html.contains("<input type=\"file\" name=\"photo\""))
    let boundary = "----WebKitFormBoundaryq8M2vWgpcbZB"
    func body(csrf: String) -> [UInt8] {
      Array(
        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n"
          + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; "
          + "filename=\"IMG_0001.PNG\"\r\nContent-Type: image/png\r\n\r\n").utf8)
        + Self.png + Array("\r\n--\(boundary)--\r\n".utf8)
    }
    let headers = [
      "Cookie": cookie, "Content-Type": "multipart/form-data; boundary=\(boundary)",
    ]
    let forged = f.app.respond(
      WebRequest(
        method: "POST", path: "/reminders/bins/photo", headers: headers, body: body(csrf: "x")))
    #expect(forged.status == 403)
    #expect(photos(f).isEmpty)
    let posted = f.app.respond(
      WebRequest(
        method: "POST", path: "/reminders/bins/photo", headers: headers,
        body: body(csrf: access.csrf(for: session))))
    #expect(posted.status == 303)
    let stored = photos(f)
    #expect(stored.count == 1)
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: f.dir.file("reminder-photos/" + stored[0]))))
    #expect(bytes == Self.png)
    let shown = f.app.respond(
      WebRequest(method: "GET", path: "/reminders/bins", headers: ["Cookie": cookie]))
    #expect(String(decoding: shown.body, as: UTF8.self).contains("src=\"/reminders/bins/photo\""))
  }

  @Test func multipartBodiesAreReadAsBrowsersSendThem() throws {
    let body =
      Array(
        ("preamble\r\n--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc\r\n"
          + "--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n"
          + "Content-Type: image/png\r\n\r\n").utf8) + Self.png + Array("\r\n--b--\r\n".utf8)
    let form = try #require(MultipartForm(body, contentType: "multipart/form-data; boundary=b"))
    #expect(form.form["csrf"] == "abc")
    #expect(form.files["photo"]?.bytes == Self.png)
    #expect(form.files["photo"]?.filename == "a.png")
    #expect(form.files["photo"]?.contentType == "image/png")
    #expect(MultipartForm.boundary("multipart/form-data; boundary=\"a b\"") == "a b")
    for bad in [
      "--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--",  // no name
      "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx",  // never closed
      "--b\r\nX\r\n\r\nx\r\n--b--",  // a header without a colon
    ] {
      #expect(MultipartForm(Array(bad.utf8), contentType: "multipart/form-data; boundary=b") == nil)
    }
    #expect(MultipartForm(body, contentType: "text/plain") == nil)
    // The limit: a photo upload by a known caller may be larger, nobody else.
    let f = try Fixture()
    let head = WebRequest(method: "PUT", path: "/api/reminders/bins/photo")
    #expect(f.app.bodyLimit(head, otherwise: 65536) == 65536)
    let known = WebRequest(
      method: "PUT", path: "/api/reminders/bins/photo", headers: WebAppTests.bearer)
    #expect(f.app.bodyLimit(known, otherwise: 65536) == ReminderPhoto.maxBytes + 65536)
    let other = WebRequest(method: "POST", path: "/api/reminders", headers: WebAppTests.bearer)
    #expect(f.app.bodyLimit(other, otherwise: 65536) == 65536)
  }
}
