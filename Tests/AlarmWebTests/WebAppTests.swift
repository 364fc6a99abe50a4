import AlarmClient
import AlarmCore
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmWeb

/// The handlers without sockets: a real config file in a temp dir, no service (its socket
/// does not exist), the clock fixed.
@Suite struct WebAppTests {
  static let text = """
    # comment
    [settings]
    timezone = "UTC"

    [[alarm]]
    id = "work"
    time = "06:45"
    days = "weekdays"
    """
  static let now = Instant(seconds: 1_800_000_000)

  static func app(_ dir: TempDir) throws -> WebApp {
    try text.write(toFile: dir.file("alarms.toml"), atomically: true, encoding: .utf8)
    let setup = WebSetup(
      configPath: dir.file("alarms.toml"), socketPath: dir.file("none.sock"),
      stateDir: dir.file("state"), environment: ["TZ": "UTC", "LANG": "C.UTF-8"],
      now: { now })
    return WebApp(setup: setup, access: WebAccess(token: "sesame\n"))
  }

  static let bearer = ["Authorization": "Bearer sesame"]

  @Test func apiRoutesAndStatuses() throws {
    let dir = try TempDir("webapp")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let app = try Self.app(dir)
    let list = app.respond(WebRequest(method: "GET", path: "/api/alarms", headers: Self.bearer))
    #expect(list.status == 200)
    #expect(String(decoding: list.body, as: UTF8.self).contains("\"id\":\"work\""))
    #expect(list.header("ETag") == ConfigStore.etag(of: Array(Self.text.utf8)))
    #expect(list.header("Cache-Control") == "no-store")
    #expect(
      app.respond(WebRequest(method: "GET", path: "/api/x", headers: Self.bearer)).status == 404)
    let put = app.respond(WebRequest(method: "PUT", path: "/api/alarms/work", headers: Self.bearer))
    #expect(put.status == 405)
    #expect(put.header("Allow") == "PATCH, DELETE")
    let snooze = app.respond(WebRequest(method: "POST", path: "/api/snooze", headers: Self.bearer))
    #expect(snooze.status == 503)
    let stale = app.respond(
      WebRequest(
        method: "PATCH", path: "/api/alarms/work",
        headers: ["Authorization": "Bearer sesame", "If-Match": "\"0\""],
        body: Array(#"{"label":"x"}"#.utf8)))
    #expect(stale.status == 409)
    #expect(try String(contentsOfFile: dir.file("alarms.toml"), encoding: .utf8) == Self.text)
  }

  /// The route table is the only list of routes: every method it names for a path is
  /// dispatched (never 404 or 405), and any other method gets 405 with exactly the
  /// table's methods for that path in `Allow`.
  @Test func everyRouteOfTheTableAnswersAndOthersGet405() throws {
    let dir = try TempDir("webapp-routes")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let app = try Self.app(dir)
    var patterns: [String] = []
    for r in WebApp.apiRoutes where !patterns.contains(r.pattern) { patterns.append(r.pattern) }
    #expect(patterns.count == 14)
    for pattern in patterns {
      let path = "/api/" + pattern.replacingOccurrences(of: "*", with: "work")
      let methods = WebApp.apiRoutes.filter { $0.pattern == pattern }.map(\.method)
      for method in ["GET", "POST", "PATCH", "DELETE", "PUT"] {
        // A reminder 'work' for every request (a DELETE removes it).
        try "[[reminder]]\nid = \"work\"\ntitle = \"Work\"\n".write(
          toFile: dir.file("reminders.toml"), atomically: true, encoding: .utf8)
        let reply = app.respond(WebRequest(method: method, path: path, headers: Self.bearer))
        if methods.contains(method) {
          #expect(reply.status != 404 && reply.status != 405, "\(method) \(path)")
        } else {
          #expect(reply.status == 405, "\(method) \(path)")
          #expect(reply.header("Allow") == methods.joined(separator: ", "), "\(method) \(path)")
        }
      }
    }
  }

  /// `GET /api/next` and the page count the service's skip (from its state file), as
  /// `status` does: the skipped occurrence is listed under the next one, not as it.
  @Test func nextCountsTheServicesSkip() throws {
    let dir = try TempDir("webapp")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let app = try Self.app(dir)
    // 1_800_000_000 is Friday 2027-01-15 08:00 UTC: work's next occurrence is Monday's.
    let skipped = LocalDate(year: 2027, month: 1, day: 18)
    try FileManager.default.createDirectory(
      atPath: dir.file("state"), withIntermediateDirectories: true)
    let state = ServiceState(marks: ScheduleMarks(skipNext: ["work": skipped]))
    try Data(StateCodec.encode(state)).write(to: URL(fileURLWithPath: dir.file("state/state.json")))
    let next = app.respond(WebRequest(method: "GET", path: "/api/next", headers: Self.bearer))
    #expect(next.status == 200)
    let body = String(decoding: next.body, as: UTF8.self)
    #expect(body.contains("\"at\":\"2027-01-19T06:45:00+00:00\""), "\(body)")
    #expect(body.contains("\"date\":\"2027-01-18\",\"kind\":\"once\""), "\(body)")
  }

  @Test func wrongTokensAreSlowedDownMoreEachTime() throws {
    let dir = try TempDir("webapp")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let app = try Self.app(dir)
    let none = app.respond(WebRequest(method: "GET", path: "/api/alarms"))
    #expect(none.status == 401)
    #expect(none.delay == nil)
    let wrong = ["Authorization": "Bearer open"]
    let delays = (0..<3).map { _ in
      app.respond(WebRequest(method: "GET", path: "/api/alarms", headers: wrong)).delay
    }
    #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1)])
    #expect(
      app.respond(WebRequest(method: "GET", path: "/api/alarms", headers: Self.bearer)).status
        == 200)
    #expect(
      app.respond(WebRequest(method: "GET", path: "/api/alarms", headers: wrong)).delay
        == .milliseconds(250))
  }

  @Test func sessionsAndCSRF() throws {
    let access = WebAccess(token: "sesame")
    let session = access.newSession(now: Self.now)
    let cookie = ["Cookie": "other=1; \(WebAccess.cookieName)=\(session)"]
    let request = WebRequest(method: "GET", path: "/", headers: cookie)
    #expect(access.session(request, now: Self.now) == session)
    // Expired, tampered, or made with another token: no session.
    #expect(access.session(request, now: Self.now + WebAccess.sessionLength) == nil)
    let tampered = WebRequest(
      method: "GET", path: "/", headers: ["Cookie": "\(WebAccess.cookieName)=9\(session)"])
    #expect(access.session(tampered, now: Self.now) == nil)
    #expect(WebAccess(token: "other").session(request, now: Self.now) == nil)
    #expect(access.isCSRF(access.csrf(for: session), for: session))
    #expect(!access.isCSRF(WebAccess(token: "other").csrf(for: session), for: session))
    #expect(!access.isCSRF(nil, for: session))
    #expect(
      access.bearer(WebRequest(method: "GET", path: "/", headers: ["Authorization": "Basic x"]))
        == false)
  }

  /// A token file that became unusable locks everyone out: the locked access takes no
  /// token (not even an empty one), no session and no CSRF token made with an empty key.
  @Test func lockedAccessLetsNobodyIn() {
    let locked = WebAccess.locked
    let empty = WebAccess(token: " \n")
    #expect(locked.isLocked && empty.isLocked && !WebAccess(token: "sesame").isLocked)
    #expect(!locked.isToken("") && !locked.isToken(" ") && !empty.isToken(""))
    let bearer = WebRequest(method: "GET", path: "/", headers: ["Authorization": "Bearer "])
    #expect(locked.bearer(bearer) == false)
    let forged = locked.newSession(now: Self.now)
    let cookie = WebRequest(
      method: "GET", path: "/", headers: ["Cookie": "\(WebAccess.cookieName)=\(forged)"])
    #expect(locked.session(cookie, now: Self.now) == nil)
    #expect(!locked.isCSRF(locked.csrf(for: forged), for: forged))
  }

  @Test func pageLoginAndCSRF() throws {
    let dir = try TempDir("webapp")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let app = try Self.app(dir)
    #expect(app.respond(WebRequest(method: "GET", path: "/")).header("Location") == "/login")
    let login = app.respond(
      WebRequest(method: "POST", path: "/login", body: Array("token=sesame".utf8)))
    #expect(login.status == 303)
    // Not inside #require: Swift 6.0.3's expansion of `a?.b().first` does not compile.
    let setCookie = login.header("Set-Cookie")?.split(separator: ";").first
    let cookie = try #require(setCookie)
    let session = String(cookie.split(separator: "=", maxSplits: 1)[1])
    let headers = ["Cookie": String(cookie)]
    let forged = app.respond(
      WebRequest(method: "POST", path: "/alarms/work/disable", headers: headers))
    #expect(forged.status == 403)
    let csrf = WebAccess(token: "sesame").csrf(for: session)
    let ok = app.respond(
      WebRequest(
        method: "POST", path: "/alarms/work/disable", headers: headers,
        body: Array("csrf=\(csrf)".utf8)))
    #expect(ok.status == 303)
    #expect(
      try String(contentsOfFile: dir.file("alarms.toml"), encoding: .utf8).contains(
        "enabled = false"))
    let api = app.respond(
      WebRequest(
        method: "POST", path: "/api/stop",
        headers: headers.merging(["X-CSRF-Token": csrf]) { a, _ in a }))
    #expect(api.status == 503)
  }

  @Test func formDecoding() throws {
    let f = try #require(
      FormData(Array("time=06%3A45&days=mon&days=tue&label=a+b&empty=&flag".utf8)))
    #expect(f["time"] == "06:45")
    #expect(f.all("days") == ["mon", "tue"])
    #expect(f["label"] == "a b")
    #expect(f["empty"] == "")
    #expect(f["flag"] == "")
    #expect(FormData(Array("a=%G1".utf8)) == nil)
    #expect(FormData(Array("a=%4".utf8)) == nil)
    #expect(FormData(Array("a=%FF".utf8)) == nil)
  }

  @Test func formChangesOnlyWhatDiffers() throws {
    let alarm = try #require(
      ConfigDecoder.decode(Self.text, path: "/x.toml").config?.alarm(id: "work"))
    let defaults = AlarmDefaults()
    let same = try #require(
      FormData(
        Array(
          "time=06:45&days=mon&days=tue&days=wed&days=thu&days=fri&volume=80&snooze=on&enabled=on"
            .utf8)))
    #expect(try WebApp.changes(same, current: alarm, defaults: defaults).isEmpty)
    let oneOff = try #require(FormData(Array("time=07:00&volume=80&enabled=on".utf8)))
    let c = try WebApp.changes(oneOff, current: alarm, defaults: defaults)
    #expect(c.unset == [.days])
    #expect(c.values[.snooze] == .boolean(false))
    #expect(c.values[.time] == .time(LocalTime(hour: 7, minute: 0, second: 0)))
    #expect(throws: AlarmInputError.self) {
      try WebApp.changes(
        try #require(FormData(Array("time=7".utf8))), current: nil, defaults: defaults)
    }
  }

  /// A station's address typed under the sound list wins over the list, and its fallback
  /// is a More setting; an address of the wrong form is refused with the config's words.
  @Test func aStationFromTheForm() throws {
    let alarm = try #require(
      ConfigDecoder.decode(Self.text, path: "/x.toml").config?.alarm(id: "work"))
    let base = "time=06:45&days=mon&days=tue&days=wed&days=thu&days=fri&volume=80&enabled=on"
    func changes(_ extra: String) throws -> AlarmChanges {
      let form = try #require(FormData(Array((base + extra).utf8)))
      return try WebApp.changes(form, current: alarm, defaults: AlarmDefaults())
    }
    let radio = try changes(
      "&sound=gentle&sound_url=+https%3A%2F%2Fradio.example%2Flive.mp3+&fallback_sound=gentle")
    #expect(radio.values[.sound] == .string("https://radio.example/live.mp3"))
    #expect(radio.values[.fallbackSound] == .string("gentle"))
    #expect(try changes("&sound=gentle&sound_url=").values[.sound] == .string("gentle"))
    #expect(throws: AlarmInputError.self) { try changes("&sound_url=http%3A%2F%2Fa+b%2F") }
    #expect(throws: AlarmInputError.self) {
      try changes("&fallback_sound=https%3A%2F%2Fradio.example%2Fbackup")
    }
  }

  /// The "More settings" fields: empty inherits `[defaults]`, a value is written only when
  /// it differs from what the alarm has, and a bad one is refused with the CLI's words.
  @Test func snoozeLengthRingForAndMaxSnoozesFromTheForm() throws {
    let alarm = try #require(
      ConfigDecoder.decode(Self.text, path: "/x.toml").config?.alarm(id: "work"))
    let defaults = AlarmDefaults()
    let base = "time=06:45&days=mon&days=tue&days=wed&days=thu&days=fri&volume=80&enabled=on"
    func changes(_ extra: String, current: Alarm? = nil) throws -> AlarmChanges {
      let form = try #require(FormData(Array((base + extra).utf8)))
      return try WebApp.changes(form, current: current ?? alarm, defaults: defaults)
    }
    // The defaults' own values, or empty: nothing to write.
    #expect(try changes("&snooze=on&snooze_length=&ring_for=&max_snoozes=").isEmpty)
    #expect(try changes("&snooze=on&snooze_length=9m&ring_for=10m").isEmpty)
    let set = try changes("&snooze=on&snooze_length=5m&ring_for=15m&max_snoozes=3")
    #expect(set.values[.snooze] == .string("5m"))
    #expect(set.values[.ringFor] == .string("15m"))
    #expect(set.values[.maxSnoozes] == .integer(3))
    // An alarm with its own values: the same values change nothing, empty ones unset.
    var own = alarm
    own.snooze = .seconds(300)
    own.ringFor = .seconds(900)
    own.maxSnoozes = 3
    #expect(
      try changes("&snooze=on&snooze_length=5m&ring_for=15m&max_snoozes=3", current: own).isEmpty)
    let back = try changes("&snooze=on&snooze_length=&ring_for=&max_snoozes=", current: own)
    #expect(back.unset == [.snooze, .ringFor, .maxSnoozes])
    // Unticked, the length does not matter: snooze is off.
    #expect(try changes("&snooze_length=5m").values[.snooze] == .boolean(false))
    // Escalation: written when set, "off" only when it differs from what is inherited.
    let louder = try changes("&snooze=on&escalate_after=5m&escalate_volume=90&escalate_sound=b.mp3")
    #expect(louder.values[.escalateAfter] == .string("5m"))
    #expect(louder.values[.escalateVolume] == .integer(90))
    #expect(louder.values[.escalateSound] == .string("b.mp3"))
    #expect(try changes("&snooze=on&escalate_after=off&escalate_volume=100").isEmpty)
    var escalating = alarm
    escalating.escalateAfter = .seconds(300)
    #expect(
      try changes("&snooze=on&escalate_after=off", current: escalating).values[.escalateAfter]
        == .boolean(false))
    #expect(
      try changes("&snooze=on&escalate_after=", current: escalating).unset == [.escalateAfter])
    // A sound's name is compared as written, not as a duration: `90s` stays `90s`.
    var named = alarm
    named.escalateSound = "90s"
    #expect(try changes("&snooze=on&escalate_sound=90s", current: named).isEmpty)
    // Announcing: the three-way choice, "" inherits, "off" only when it differs.
    let speaking = try changes("&snooze=on&announce=on&announce_every=2m")
    #expect(speaking.values[.announce] == .boolean(true))
    #expect(speaking.values[.announceEvery] == .string("2m"))
    #expect(try changes("&snooze=on&announce=off&announce_every=1m").isEmpty)
    var announcing = alarm
    announcing.announce = true
    #expect(
      try changes("&snooze=on&announce=off", current: announcing).values[.announce]
        == .boolean(false))
    #expect(try changes("&snooze=on&announce=", current: announcing).unset == [.announce])
    for bad in [
      "&snooze=on&snooze_length=9", "&ring_for=forever", "&max_snoozes=-1", "&escalate_after=x",
      "&escalate_volume=101", "&announce=yes", "&announce_every=5s",
    ] {
      #expect(throws: AlarmInputError.self, "\(bad)") { try changes(bad) }
    }
  }

  /// The rest of "More settings": days off with ranges, calendars (`none`: the empty
  /// list), the one-off's date, the ramp, a folder's order and the id, each written only
  /// when it differs, each refused with the CLI's words when it is not one.
  @Test func daysOffCalendarsDateAndIdFromTheForm() throws {
    let alarm = try #require(
      ConfigDecoder.decode(Self.text, path: "/x.toml").config?.alarm(id: "work"))
    let base = "time=06:45&days=mon&days=tue&days=wed&days=thu&days=fri&volume=80&enabled=on"
    func changes(_ extra: String, current: Alarm? = nil) throws -> AlarmChanges {
      let form = try #require(FormData(Array((base + "&snooze=on" + extra).utf8)))
      return try WebApp.changes(form, current: current ?? alarm, defaults: AlarmDefaults())
    }
    let christmas = SkipEntry.day(LocalDate(year: 2027, month: 12, day: 24))
    let vacation = SkipEntry.range(
      DateRange(
        from: LocalDate(year: 2027, month: 7, day: 19), to: LocalDate(year: 2027, month: 7, day: 30)
      ))
    let set = try changes(
      "&skip=2027-12-24%0D%0A2027-07-19..2027-07-30&skip_calendars=none&ramp=1m"
        + "&sound_order=rotate&id=office")
    #expect(set.values[.skip] == .skips([vacation, christmas]))
    #expect(set.values[.ramp] == .string("1m") && set.values[.soundOrder] == .string("rotate"))
    #expect(set.values[.id] == .string("office"))
    // `[defaults]` has no calendar: "none" is what the alarm already has.
    #expect(set.values[.skipCalendars] == nil)
    var own = alarm
    own.skip = [LocalDate(year: 2027, month: 12, day: 24)]
    if case .range(let r) = vacation { own.skipRanges = [r] }
    own.skipCalendars = ["/etc/alarmclock/holidays.ics"]
    // The same list in another order and spelling, the same calendar: nothing to write.
    #expect(
      try changes(
        "&skip=2027-07-19..2027-07-30,+2027-12-24&skip_calendars=/etc/alarmclock/holidays.ics&id=work",
        current: own
      ).isEmpty)
    let cleared = try changes("&skip=&skip_calendars=none", current: own)
    #expect(cleared.unset == [.skip])
    #expect(cleared.values[.skipCalendars] == .strings([]))
    #expect(
      try changes("&skip=2027-12-24%0A2027-07-19..2027-07-30&skip_calendars=", current: own).unset
        == [.skipCalendars])
    let once = try changes("&date=2027-03-28")
    #expect(once.values[.date] == .date(LocalDate(year: 2027, month: 3, day: 28)))
    for bad in [
      "&skip=2027-07-30..2027-07-19", "&skip=christmas", "&date=2027-02-30", "&ramp=slow",
      "&sound_order=random", "&id=Work",
    ] {
      #expect(throws: AlarmInputError.self, "\(bad)") { try changes(bad) }
    }
  }

  /// The API takes days off and calendars as arrays, ranges as the file writes them or as
  /// `from..to`, through the same parsers, and writes them into the file.
  @Test func jsonDaysOffReachTheFile() throws {
    let dir = try TempDir("webapp")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let app = try Self.app(dir)
    let body = #"""
      {"skip": ["2027-12-24", {"from": "2027-07-19", "to": "2027-07-30"}, "2028-01-02..2028-01-05"],
       "skip_calendars": []}
      """#
    let r = app.respond(
      WebRequest(
        method: "PATCH", path: "/api/alarms/work",
        headers: Self.bearer.merging(["Content-Type": "application/json"]) { a, _ in a },
        body: Array(body.utf8)))
    #expect(r.status == 200, "\(String(decoding: r.body, as: UTF8.self))")
    let text = try String(contentsOfFile: dir.file("alarms.toml"), encoding: .utf8)
    #expect(
      text.contains(
        "skip = [{ from = 2027-07-19, to = 2027-07-30 }, 2027-12-24, "
          + "{ from = 2028-01-02, to = 2028-01-05 }]"))
    #expect(text.contains("skip_calendars = []"))
    for bad in [#"{"skip": "2027-12-24"}"#, #"{"skip": [1]}"#, #"{"skip_calendars": [""]}"#] {
      #expect(throws: AlarmInputError.self, "\(bad)") { try AlarmInput.changes(Array(bad.utf8)) }
    }
  }

  /// The API takes the escalation keys (`AlarmKey.settableFromAPI`) with the CLI's checks.
  @Test func jsonEscalation() throws {
    let c = try AlarmInput.changes(
      Array(#"{"escalate_after":"5m","escalate_volume":100,"escalate_sound":"birds"}"#.utf8))
    #expect(c.values[.escalateAfter] == .string("5m"))
    #expect(c.values[.escalateVolume] == .integer(100))
    #expect(c.values[.escalateSound] == .string("birds"))
    let off = try AlarmInput.changes(Array(#"{"escalate_after":false,"escalate_sound":""}"#.utf8))
    #expect(off.values[.escalateAfter] == .boolean(false) && off.unset == [.escalateSound])
    #expect(throws: AlarmInputError.self) {
      try AlarmInput.changes(Array(#"{"escalate_volume":"loud"}"#.utf8))
    }
  }

  @Test func jsonInput() throws {
    let c = try AlarmInput.changes(
      Array(#"{"time":"06:30","days":["sat","sun"],"label":null,"snooze":false,"volume":40}"#.utf8))
    #expect(c.values[.days] == .strings(["sat", "sun"]))
    #expect(c.unset == [.label])
    #expect(c.values[.snooze] == .boolean(false))
    #expect(c.values[.volume] == .integer(40))
    for (body, message) in [
      (#"{"volume":101}"#, "volume wants a whole number from 0 to 100, not \"101\""),
      (#"{"days":[1]}"#, "days wants day names like \"mon\", not a number"),
      (#"{"enabled":"yes"}"#, "enabled wants true or false, not a string"),
      (#"[1]"#, "the body must be a JSON object, not an array"),
    ] {
      #expect(throws: AlarmInputError.self) { try AlarmInput.changes(Array(body.utf8)) }
      do {
        _ = try AlarmInput.changes(Array(body.utf8))
      } catch {
        #expect(error.message == message)
      }
    }
  }

  @Test func listenAddresses() throws {
    #expect(try ListenAddress.parse("127.0.0.1:8080").get() == ListenAddress.fallback)
    #expect(try ListenAddress.parse("localhost:80").get().host == "127.0.0.1")
    #expect(try ListenAddress.parse("[::1]:80").get().isIPv6)
    #expect(try ListenAddress.parse("0.0.0.0:8080").get().url == "http://127.0.0.1:8080")
    for bad in ["pi:80", "1.2.3.4", "1.2.3.4:99999", "[::1:80"] {
      #expect((try? ListenAddress.parse(bad).get()) == nil, "\(bad)")
    }
  }
}
