import AlarmClient
import AlarmCore
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmWeb

/// `GET /api/alarms` and `GET /api/next` are made once per second, config decoding and
/// state file, and are then the same bytes as a fresh answer would be.
@Suite struct WebReadCacheTests {
  final class Clock: @unchecked Sendable {
    var now = Instant(seconds: 1_800_000_000, milliseconds: 100)
  }

  @Test func readsAreKeptForTheirSecondAndNoLonger() throws {
    let dir = try TempDir("webcache")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    try WebAppTests.text.write(toFile: dir.file("alarms.toml"), atomically: true, encoding: .utf8)
    let clock = Clock()
    let setup = WebSetup(
      configPath: dir.file("alarms.toml"), socketPath: dir.file("none.sock"),
      stateDir: dir.file("state"), environment: ["TZ": "UTC", "LANG": "C.UTF-8"],
      now: { clock.now })
    let app = WebApp(setup: setup, access: WebAccess(token: "sesame"))
    func get(_ path: String, count: Int? = nil) -> String {
      let r = app.respond(
        WebRequest(
          method: "GET", path: path, query: count.map { [("count", String($0))] } ?? [],
          headers: WebAppTests.bearer))
      #expect(r.status == 200)
      return String(decoding: r.body, as: UTF8.self)
    }
    // Friday 2027-01-15 08:00 UTC: work's next occurrence is Monday's.
    let first = get("/api/next", count: 2)
    #expect(first.contains("\"at\":\"2027-01-18T06:45:00+00:00\""), "\(first)")
    clock.now = Instant(seconds: 1_800_000_000, milliseconds: 900)
    #expect(get("/api/next", count: 2) == first && app.replies.made == 1)
    #expect(!get("/api/next", count: 3).isEmpty && app.replies.made == 2)
    _ = get("/api/alarms")
    _ = get("/api/alarms")
    #expect(app.replies.made == 3)

    // The service skips Monday (its state file is replaced): answered anew, same second.
    try FileManager.default.createDirectory(
      atPath: dir.file("state"), withIntermediateDirectories: true)
    let state = ServiceState(
      marks: ScheduleMarks(skipNext: ["work": LocalDate(year: 2027, month: 1, day: 18)]))
    try Data(StateCodec.encode(state)).write(
      to: URL(fileURLWithPath: dir.file("state/state.json")), options: .atomic)
    let skipped = get("/api/next", count: 2)
    #expect(skipped.contains("\"at\":\"2027-01-19T06:45:00+00:00\""), "\(skipped)")
    #expect(app.replies.made == 4)

    // An edit of the file: another ETag, another decoding.
    try (WebAppTests.text.replacingOccurrences(of: "06:45", with: "07:15")).write(
      toFile: dir.file("alarms.toml"), atomically: true, encoding: .utf8)
    #expect(get("/api/next", count: 2).contains("T07:15:00"))

    // The next second is answered anew, and the same as a fresh process answers it.
    clock.now = Instant(seconds: 1_800_000_001)
    let later = get("/api/alarms")
    let fresh = WebApp(setup: setup, access: WebAccess(token: "sesame"))
    let again = fresh.respond(
      WebRequest(method: "GET", path: "/api/alarms", headers: WebAppTests.bearer))
    #expect(String(decoding: again.body, as: UTF8.self) == later)
  }

  /// The config is not read again while its identity is unchanged and settled, but a write
  /// in place of the same size right after a read (the same tick of the file clock) is
  /// seen, and so is one after it settled.
  @Test func anEditInPlaceIsSeenSettledOrNot() throws {
    let dir = try TempDir("webcache")
    defer { try? FileManager.default.removeItem(atPath: dir.path) }
    let path = dir.file("alarms.toml")
    try WebAppTests.text.write(toFile: path, atomically: true, encoding: .utf8)
    let setup = WebSetup(
      configPath: path, socketPath: dir.file("none.sock"), stateDir: dir.file("state"),
      environment: ["TZ": "UTC", "LANG": "C.UTF-8"], now: { WebAppTests.now })
    let app = WebApp(setup: setup, access: WebAccess(token: "sesame"))
    func etag() -> String? {
      app.respond(WebRequest(method: "GET", path: "/api/alarms", headers: WebAppTests.bearer))
        .header("ETag")
    }
    func writeInPlace(_ text: String) throws {
      let handle = try #require(FileHandle(forWritingAtPath: path))
      handle.write(Data(text.utf8))
      handle.closeFile()
    }
    let first = etag()
    // The same size, the same inode, at once: not settled, so read again.
    try writeInPlace(WebAppTests.text.replacingOccurrences(of: "06:45", with: "07:45"))
    let second = etag()
    #expect(second != first)
    // Outside #expect: Swift 6.0.3's expansion does not take a `try` inside.
    let onDisk = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(second == ConfigStore.etag(of: onDisk))
    // Settled: its change time a second and more in the past.
    var times = [
      timespec(tv_sec: time(nil) - 10, tv_nsec: 0), timespec(tv_sec: time(nil) - 10, tv_nsec: 0),
    ]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    // utimensat changes the change time to now; wait until it is a second old, on the
    // file clock itself (no fixed sleep: the condition is the file's own time).
    var st = stat()
    while stat(path, &st) == 0, Int(st.st_ctim.tv_sec) + 1 >= time(nil) { usleep(50_000) }
    let settledTag = etag()
    #expect(etag() == settledTag)
    try writeInPlace(WebAppTests.text.replacingOccurrences(of: "06:45", with: "08:45"))
    #expect(etag() != settledTag)
  }
}
