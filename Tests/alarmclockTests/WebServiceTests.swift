import AudioTestSupport
import Foundation
import Testing

/// `alarmclock web` in front of a running `alarmclock run`: the calls that go to the
/// service over its control socket, and edits the service applies.
@Suite(.serialized) struct WebServiceTests {
  static var alarms: String {
    """
    [[alarm]]
    id = "wake"
    label = "Wake"
    time = "\(awayFromNow(hours: 6))"
    days = "daily"
    """
  }

  /// The service and the web process on the same config.
  static func start(_ name: String) throws -> (ServiceProcess, WebRunner) {
    let dir = try TempDir(name)
    let service = try ServiceProcess(dir: dir, config: ServiceControlTests.config(alarms))
    let web = try WebRunner(dir: dir, config: nil, socket: service.socket)
    return (service, web)
  }

  @Test func statusIsExactlyWhatStatusJSONPrints() throws {
    let (service, web) = try Self.start("web-status")
    defer { web.dir.remove() }
    var same = false
    for _ in 0..<3 where !same {
      let r = try web.request("GET", "/api/status")
      let cli = try service.ctl(["status", "--json"])
      #expect(r.status == 200)
      same = r.body == cli.stdout
    }
    #expect(same)
  }

  @Test func ringSnoozeStopFromTheAPI() throws {
    let (service, web) = try Self.start("web-ring")
    defer { web.dir.remove() }
    #expect(try web.request("POST", "/api/alarms/wake/ring").status == 200)
    try waitFor("ringing", timeout: 15) { try service.sessionState() == "ringing" }
    let snoozed = try web.request("POST", "/api/snooze")
    #expect(snoozed.status == 200)
    #expect((snoozed.json as? [String: Any])?["until"] is String)
    #expect(try service.sessionState() == "snoozed")
    #expect(try web.request("POST", "/api/stop").status == 200)
    #expect(try service.sessionState() == nil)
    let again = try web.request("POST", "/api/stop")
    #expect(again.status == 409)
    #expect(again.errorCode == "not-ringing")
    let unknown = try web.request("POST", "/api/alarms/nope/ring")
    #expect(unknown.status == 404)
    #expect(unknown.errorCode == "unknown-alarm")
  }

  @Test func skipAndUnskipTheNextOccurrence() throws {
    let (service, web) = try Self.start("web-skip")
    defer {
      service.terminate()
      web.dir.remove()
    }
    let skipped = try web.request("POST", "/api/alarms/wake/skip")
    #expect(skipped.status == 200)
    #expect((skipped.json as? [String: Any])?["id"] as? String == "wake")
    #expect(try web.request("POST", "/api/alarms/wake/unskip").status == 200)
    let twice = try web.request("POST", "/api/alarms/wake/unskip")
    #expect(twice.status == 409)
    #expect(twice.errorCode == "not-skipped")
  }

  @Test func anAlarmAddedOverHTTPIsScheduledByTheService() throws {
    let (service, web) = try Self.start("web-apply")
    defer { web.dir.remove() }
    let r = try web.request(
      "POST", "/api/alarms", body: #"{"id":"tea","time":"16:00","days":"daily"}"#)
    #expect(r.status == 201)
    try waitFor("the service to schedule it", timeout: 15) {
      ((try service.status()["next"] as? [[String: Any]]) ?? []).contains {
        $0["id"] as? String == "tea"
      }
    }
  }
}
