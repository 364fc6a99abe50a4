import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock web` over TCP on loopback, without a running service: access, the config
/// API (same objects as the CLI, comments kept, ETags), limits and robustness.
@Suite struct WebCommandTests {
  static let config = """
    # my alarms, with comments that must survive every edit
    [settings]
    timezone = "UTC"

    [[alarm]]
    id = "work"
    time = "06:45"
    days = "weekdays"
    label = "Work"   # trailing comment

    # the gym
    [[alarm]]
    id = "gym"
    time = "18:00"
    days = ["sat"]
    """

  static func start(_ name: String, config: String = config) throws -> WebRunner {
    let dir = try TempDir(name)
    return try WebRunner(dir: dir, config: config, socket: dir.file("no-service.sock"))
  }

  @Test func createsTheTokenFilePrivateAndPrintsTheLoginURL() throws {
    let web = try Self.start("web-token")
    defer { web.dir.remove() }
    var st = stat()
    #expect(stat(web.tokenPath, &st) == 0)
    #expect(st.st_mode & 0o777 == 0o600)
    #expect(web.token.count == 64)
    #expect(web.log.contains("created \(web.tokenPath)"))
    // Not a terminal (a log, the journal): the token is not written there.
    #expect(!web.log.contains(web.token))
    #expect(web.log.contains("'alarmclock web --print-url' prints the login link"))
    let r = try CLI.run([
      "web", "--print-url", "--config", web.configPath, "--listen", "192.168.1.5:8080",
    ])
    #expect(r.status == 0)
    #expect(r.stdout == "log in at http://192.168.1.5:8080/login#\(web.token)\n")
    // A token in the query logs nobody in (it would reach logs and the history).
    let query = try web.request("GET", "/login?token=\(web.token)", auth: false)
    #expect(query.status == 200)
    #expect(query.header("Set-Cookie") == nil)
  }

  @Test func aTokenFileOthersCanReadOrAShortTokenIsRefused() throws {
    let dir = try TempDir("web-token-checks")
    defer { dir.remove() }
    let config = try dir.write("alarms.toml", Self.config)
    let token = try dir.write("token", String(repeating: "k", count: 40) + "\n")
    for mode: mode_t in [0o644, 0o640, 0o620] {
      chmod(token, mode)
      let open = try CLI.run(["web", "--print-url", "--config", config, "--token-file", token])
      #expect(open.status == 1)
      #expect(
        open.stderr.contains(
          "readable or writable by others than its owner (mode \(String(mode, radix: 8)))"))
      #expect(open.stderr.contains("chmod 600 \(token)"))
    }
    chmod(token, 0o600)
    #expect(
      try CLI.run(["web", "--print-url", "--config", config, "--token-file", token]).status == 0)
    let short = try dir.write("short", "123456789\n")
    chmod(short, 0o600)
    let r = try CLI.run(["web", "--print-url", "--config", config, "--token-file", short])
    #expect(r.status == 1)
    #expect(r.stderr.contains("the token is 9 characters, fewer than 16"))
  }

  /// A new token works at once, the old one and its logins at once no more.
  @Test func aNewTokenInTheFileWorksAtOnce() throws {
    let web = try Self.start("web-new-token")
    defer { web.dir.remove() }
    let login = try web.request("POST", "/login", body: "token=\(web.token)", auth: false)
    // Two steps: Swift 6.0.3's #require cannot see through the optional chain.
    let setCookie = try #require(login.header("Set-Cookie"))
    let cookie = try #require(setCookie.split(separator: ";").first)
    #expect(
      try web.request("GET", "/", headers: ["Cookie": String(cookie)], auth: false).status == 200)
    let fresh = String(repeating: "f", count: 20) + "new-token"
    let temp = try web.dir.write("token.new", fresh + "\n")
    chmod(temp, 0o600)
    #expect(rename(temp, web.tokenPath) == 0)
    let new = try web.request(
      "GET", "/api/alarms", headers: ["Authorization": "Bearer \(fresh)"], auth: false)
    #expect(new.status == 200)
    #expect(try web.request("GET", "/api/alarms").status == 401)
    let page = try web.request("GET", "/", headers: ["Cookie": String(cookie)], auth: false)
    #expect(page.status == 303)
    #expect(page.header("Location") == "/login")
    try waitFor("the change in the log", timeout: 10) {
      web.log.contains("the new token is in use")
    }
  }

  @Test func theAPINeedsTheToken() throws {
    let web = try Self.start("web-auth")
    defer { web.dir.remove() }
    let none = try web.request("GET", "/api/alarms", auth: false)
    #expect(none.status == 401)
    #expect(none.errorCode == "unauthorized")
    #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
    let start = Date()
    let wrong = try web.request(
      "GET", "/api/alarms", headers: ["Authorization": "Bearer nope"], auth: false)
    #expect(wrong.status == 401)
    // A wrong token is answered only after a delay (guessing is slowed down).
    #expect(Date().timeIntervalSince(start) >= 0.2)
    #expect(try web.request("GET", "/api/alarms").status == 200)
  }

  @Test func listIsExactlyWhatListJSONPrints() throws {
    let web = try Self.start("web-list")
    defer { web.dir.remove() }
    let r = try web.request("GET", "/api/alarms")
    #expect(r.status == 200)
    #expect(r.header("Content-Type") == "application/json")
    let cli = try CLI.run(
      ["list", "--json", "--config", web.configPath, "--state-dir", web.dir.file("state")],
      environment: ["TZ": "UTC"])
    #expect(cli.status == 0)
    #expect(r.body == cli.stdout)
    #expect(r.header("ETag")?.hasPrefix("\"") == true)
    // next: the same as `next --json --count 3` (retried once if a firing passed meanwhile).
    var same = false
    for _ in 0..<2 where !same {
      let n = try web.request("GET", "/api/next?count=3")
      let c = try CLI.run(
        ["next", "--json", "--count", "3", "--config", web.configPath], environment: ["TZ": "UTC"])
      same = n.status == 200 && n.body == c.stdout
    }
    #expect(same)
    #expect(try web.request("GET", "/api/next?count=0").status == 400)
    #expect(try web.request("GET", "/api/next?count=x").errorCode == "invalid-value")
  }

  @Test func editsKeepCommentsAndAnswerLikeTheCLI() throws {
    let web = try Self.start("web-edit")
    defer { web.dir.remove() }
    let created = try web.request(
      "POST", "/api/alarms",
      body: #"{"time":"07:30","days":["sat","sun"],"label":"Weekend","volume":60,"snooze":"5m"}"#)
    #expect(created.status == 201)
    let object = created.json as? [String: Any]
    #expect(object?["id"] as? String == "weekend-0730")
    #expect(object?["repeat"] as? String == "Weekends")
    #expect(created.header("Location") == "/api/alarms/weekend-0730")
    var text = web.config
    #expect(text.hasPrefix(Self.config))
    #expect(text.contains("label = \"Weekend\""))
    #expect(text.contains("snooze = \"5m\""))

    let patched = try web.request("PATCH", "/api/alarms/work", body: #"{"enabled":false}"#)
    #expect(patched.status == 200)
    #expect((patched.json as? [String: Any])?["enabled"] as? Bool == false)
    text = web.config
    #expect(text.contains("label = \"Work\"   # trailing comment"))
    #expect(text.contains("# the gym"))

    // An invalid value: 400, the CLI's words, the file byte-identical.
    let before = web.config
    let bad = try web.request("PATCH", "/api/alarms/work", body: #"{"time":"25:00"}"#)
    #expect(bad.status == 400)
    #expect(bad.errorCode == "invalid-value")
    #expect(bad.errorMessage == "time wants a time like 06:45 or 06:45:30, not \"25:00\"")
    #expect(
      try web.request("POST", "/api/alarms", body: #"{"tme":"06:00"}"#).errorMessage?
        .hasPrefix("unknown field 'tme'; did you mean 'time'?") == true)
    #expect(try web.request("POST", "/api/alarms", body: "not json").status == 400)
    #expect(try web.request("POST", "/api/alarms", body: #"{"label":"x"}"#).status == 400)
    #expect(web.config == before)

    // An unknown id: 404 with the message `alarmclock edit` prints.
    let missing = try web.request("PATCH", "/api/alarms/wrok", body: #"{"label":"x"}"#)
    #expect(missing.status == 404)
    let cli = try CLI.run(["edit", "wrok", "--label", "x", "--config", web.configPath])
    #expect(cli.stderr.hasPrefix(missing.errorMessage ?? "?"))

    let deleted = try web.request("DELETE", "/api/alarms/gym")
    #expect(deleted.status == 204)
    #expect(!web.config.contains("id = \"gym\""))
    #expect(web.config.contains("# my alarms"))
    #expect(try web.request("DELETE", "/api/alarms/gym").status == 404)
  }

  @Test func aStaleETagIsAConflict() throws {
    let web = try Self.start("web-etag")
    defer { web.dir.remove() }
    let list = try web.request("GET", "/api/alarms")
    let etag = try #require(list.header("ETag"))
    // Someone else saves the file meanwhile.
    #expect(try CLI.run(["disable", "gym", "--config", web.configPath]).status == 0)
    let before = web.config
    let r = try web.request(
      "PATCH", "/api/alarms/work", body: #"{"label":"Late"}"#, headers: ["If-Match": etag])
    #expect(r.status == 409)
    #expect(r.errorCode == "config-changed")
    #expect(web.config == before)
    // With the current ETag it goes through, and the reply carries the new one.
    let fresh = try #require(try web.request("GET", "/api/alarms").header("ETag"))
    let ok = try web.request(
      "PATCH", "/api/alarms/work", body: #"{"label":"Late"}"#, headers: ["If-Match": fresh])
    #expect(ok.status == 200)
    #expect(ok.header("ETag") != fresh)
  }

  @Test func theServiceCallsSay503WhenItIsNotRunning() throws {
    let web = try Self.start("web-503")
    defer { web.dir.remove() }
    for (method, path) in [
      ("POST", "/api/snooze"), ("POST", "/api/stop"), ("GET", "/api/status"),
      ("POST", "/api/alarms/work/skip"), ("POST", "/api/alarms/work/unskip"),
      ("POST", "/api/alarms/work/ring"),
    ] {
      let r = try web.request(method, path)
      #expect(r.status == 503, "\(method) \(path)")
      #expect(r.errorCode == "not-running")
      #expect(r.errorMessage?.hasPrefix("alarmclock is not running") == true)
    }
  }

  @Test func unknownRoutesAndMethods() throws {
    let web = try Self.start("web-routes")
    defer { web.dir.remove() }
    #expect(try web.request("GET", "/api/nothing").status == 404)
    let r = try web.request("PUT", "/api/alarms")
    #expect(r.status == 405)
    #expect(r.header("Allow") == "GET, POST")
    #expect(try web.request("GET", "/api/snooze").status == 405)
  }

  @Test func limitsKeepAliveAndMalformedRequests() throws {
    let web = try Self.start("web-limits")
    defer { web.dir.remove() }
    // Keep-alive: several requests on one connection.
    let c = try web.connect()
    for _ in 0..<3 {
      let r = try c.send("GET", "/api/alarms", headers: ["Authorization": "Bearer \(web.token)"])
      #expect(r.status == 200)
    }
    // A body over the limit: 413, the file untouched.
    let before = web.config
    let big = "{\"label\":\"" + String(repeating: "x", count: 70_000) + "\"}"
    let r = try web.request("POST", "/api/alarms", body: big)
    #expect(r.status == 413)
    #expect(r.errorCode == "body-too-large")
    #expect(r.header("X-Content-Type-Options") == "nosniff")
    #expect(web.config == before)
    // A malformed header line or length: 400; bytes that are not HTTP at all: the
    // connection is closed. The process keeps serving either way.
    for malformed in [
      "GET /api/alarms HTTP/1.1\r\nno colon here\r\n\r\n",
      "POST /api/alarms HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    ] {
      let raw = try web.connect()
      try raw.write(Array(malformed.utf8))
      #expect(try raw.readReply().status == 400)
    }
    // Two Content-Length headers: 400 before the request is handled, with the headers
    // of every reply.
    let twice = try web.connect()
    try twice.write(
      Array(
        ("GET /api/alarms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(web.token)\r\n"
          + "Content-Length: 0\r\nContent-Length: 0\r\n\r\n").utf8))
    let refused = try twice.readReply()
    #expect(refused.status == 400)
    #expect(refused.header("X-Frame-Options") == "DENY")
    let garbage = try web.connect()
    try garbage.write([0, 1, 2, 0xff] + Array(" garbage\r\n\r\n".utf8))
    #expect(garbage.isClosed())
    let huge = try web.connect()
    try huge.write(
      Array(
        ("GET /api/alarms HTTP/1.1\r\nX: " + String(repeating: "a", count: 40_000) + "\r\n\r\n")
          .utf8))
    #expect(try huge.readReply().status >= 400)
    #expect(try web.request("GET", "/api/alarms").status == 200)
  }

  /// A photo may be megabytes, but only for a caller the headers show has the token (or a
  /// session): anyone else is refused at the headers, before the body is read, so nobody
  /// can make the process buffer more than 64 KiB.
  @Test func aPhotoUploadMayBeLargeOnlyForACallerWithTheToken() throws {
    let web = try Self.start("web-photo")
    defer { web.dir.remove() }
    #expect(
      try web.request("POST", "/api/reminders", body: #"{"title":"Dentist"}"#).status == 201)
    let photo =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 3 << 20)
    // No token: 413 as soon as the headers are in (nothing of the body was sent).
    let anonymous = try web.connect()
    try anonymous.write(
      Array(
        ("PUT /api/reminders/dentist/photo HTTP/1.1\r\nHost: x\r\n"
          + "Content-Length: \(photo.count)\r\n\r\n").utf8))
    let refused = try anonymous.readReply()
    #expect(refused.status == 413)
    #expect(refused.body.contains("65536"))
    // With the token: stored, and named in the list.
    let stored = try web.connect().send(
      "PUT", "/api/reminders/dentist/photo", body: photo,
      headers: ["Authorization": "Bearer \(web.token)"])
    #expect(stored.status == 200, "\(stored.body)")
    #expect(stored.body.contains(#""photo":"dentist-"#), "\(stored.body)")
    let names = try FileManager.default.contentsOfDirectory(atPath: web.dir.file("reminder-photos"))
    #expect(names.count == 1 && names[0].hasSuffix(".png"), "\(names)")
    // Over the photo limit even with the token: 413.
    let tooBig = try web.connect()
    try tooBig.write(
      Array(
        ("PUT /api/reminders/dentist/photo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
          + "\(web.token)\r\nContent-Length: \(9 << 20)\r\n\r\n").utf8))
    #expect(try tooBig.readReply().status == 413)
  }

  @Test func aSlowlorisClientIsCutOff() throws {
    let web = try Self.start("web-slow")
    defer { web.dir.remove() }
    let slow = try web.connect()
    try slow.write(Array("GET /api/alarms HTTP/1.1\r\nHost: x\r\n".utf8))
    // Others are served meanwhile.
    #expect(try web.request("GET", "/api/alarms").status == 200)
    let start = Date()
    var closed = false
    while !closed && Date().timeIntervalSince(start) < 40 {
      closed = slow.isClosed()
    }
    #expect(closed)
    #expect(Date().timeIntervalSince(start) < 30)
  }

  @Test func thePageLogsInWithACookieAndFormsNeedTheCSRFToken() throws {
    let web = try Self.start("web-page")
    defer { web.dir.remove() }
    let anonymous = try web.request("GET", "/", auth: false)
    #expect(anonymous.status == 303)
    #expect(anonymous.header("Location") == "/login")
    #expect(try web.request("POST", "/login", body: "token=wrong", auth: false).status == 401)
    let login = try web.request("POST", "/login", body: "token=\(web.token)", auth: false)
    #expect(login.status == 303)
    let setCookie = try #require(login.header("Set-Cookie"))
    #expect(setCookie.contains("HttpOnly"))
    #expect(setCookie.contains("SameSite=Strict"))
    let cookie = String(setCookie.split(separator: ";")[0])
    let page = try web.request("GET", "/", headers: ["Cookie": cookie], auth: false)
    #expect(page.status == 200)
    #expect(page.header("Content-Security-Policy") != nil)
    let csrf = try #require(Self.hidden("csrf", in: page.body))
    let etag = try #require(Self.hidden("etag", in: page.body))
    // Without the CSRF token: refused, the file untouched.
    let before = web.config
    let forged = try web.request(
      "POST", "/alarms/work/disable", body: "etag=\(etag)", headers: ["Cookie": cookie],
      auth: false)
    #expect(forged.status == 403)
    let apiForged = try web.request("POST", "/api/snooze", headers: ["Cookie": cookie], auth: false)
    #expect(apiForged.status == 403)
    #expect(web.config == before)
    // With it: done, 303 back to the list.
    let ok = try web.request(
      "POST", "/alarms/work/disable", body: "csrf=\(csrf)&etag=\(etag)",
      headers: ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"],
      auth: false)
    #expect(ok.status == 303)
    #expect(web.config.contains("enabled = false"))
    // The stale etag of the page that was shown: 409.
    let stale = try web.request(
      "POST", "/alarms/gym/disable", body: "csrf=\(csrf)&etag=\(etag)",
      headers: ["Cookie": cookie], auth: false)
    #expect(stale.status == 409)
    // The add form: a bad time is shown again with the error; a good one is written.
    let bad = try web.request(
      "POST", "/alarms", body: "csrf=\(csrf)&time=25:00&label=Nap", headers: ["Cookie": cookie],
      auth: false)
    #expect(bad.status == 400)
    #expect(bad.body.contains("time wants a time like"))
    let added = try web.request(
      "POST", "/alarms",
      body: "csrf=\(csrf)&time=13:30&days=sat&days=sun&label=Nap&volume=50&snooze=on&enabled=on",
      headers: ["Cookie": cookie], auth: false)
    #expect(added.status == 303)
    #expect(web.config.contains("label = \"Nap\""))
    #expect(web.config.contains("# the gym"))
  }

  @Test func socketActivationServesThenExitsWhenIdle() throws {
    let activate = "/usr/bin/systemd-socket-activate"
    guard FileManager.default.isExecutableFile(atPath: activate) else { return }
    let dir = try TempDir("web-activate")
    defer { dir.remove() }
    let config = try dir.write("alarms.toml", Self.config)
    // A free port: bind port 0, read it, let it go.
    let probe = try WebListenerProbe()
    let port = probe.port
    probe.close()
    let p = Process()
    p.executableURL = URL(fileURLWithPath: activate)
    p.arguments = [
      "-l", "127.0.0.1:\(port)", "-E", "TZ=UTC", CLI.binary, "web", "--config", config,
      "--socket", dir.file("none.sock"), "--idle-exit", "1s",
    ]
    let log = dir.file("log")
    FileManager.default.createFile(atPath: log, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    p.standardOutput = handle
    p.standardError = handle
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    var reply: HTTPReply?
    try waitFor("the activated socket to answer", timeout: 20) {
      guard let c = try? HTTPConnection(port: port) else { return false }
      reply = try? c.send("GET", "/api/alarms")
      return reply != nil
    }
    // No token was given: the file is created beside the config, and the API refuses.
    #expect(reply?.status == 401)
    try waitFor("the idle exit", timeout: 20) { !p.isRunning }
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(text.contains("serving on the socket from systemd"))
    #expect(text.contains("no request for 1s; exiting"))
  }

  /// The value of the first hidden field `name` in a page (HTML entities undone).
  static func hidden(_ name: String, in html: String) -> String? {
    guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    let rest = html[range.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    let value = rest[..<end].replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&amp;", with: "&")
    return value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
  }
}
