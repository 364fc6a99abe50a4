import AlarmCore
import AudioTestSupport
import Foundation
import Glibc
import Testing

/// The real binary: a snooze lasts what it says, counted from the press to the
/// millisecond, and `max_snoozes` keeps the alarm ringing until stop.
@Suite(.serialized) struct ServiceSnoozeLimitTests {
  @Test func aSnoozeRingsAgainAtThePressPlusItsLengthAndTheLimitRefuses() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let config = ServiceControlTests.config(
      """
      [[alarm]]
      id = "nap"
      time = "\(awayFromNow(hours: 6))"
      days = "daily"
      snooze = "2s"
      max_snoozes = 1
      ramp = "0s"
      """)
    let service = try ServiceProcess(dir: dir, config: config)
    #expect(try service.ctl(["ring", "nap"]).status == 0)
    // Press in the middle of a second: an end cut to a whole second would come ~0.5 s early.
    try waitFor("the middle of a second", timeout: 5) {
      let f = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
      return f > 0.4 && f < 0.6
    }
    let client = try RawClient(socket: service.socket)
    let before = Date()
    try client.send(Array("{\"cmd\":\"snooze\"}\n".utf8))
    let reply = try client.readLines(1)
    let after = Date()
    #expect(reply.first?.contains(#""ok":true"#) == true, "\(reply)")
    var rangAgain: Date? = nil
    try waitFor("the ring after the snooze", timeout: 10) {
      try client.send(Array("{\"cmd\":\"status\"}\n".utf8))
      let status = try client.readLines(1).first ?? ""
      if status.contains(#""state":"ringing""#) { rangAgain = Date() }
      return rangAgain != nil
    }
    let again = try #require(rangAgain).timeIntervalSince(before)
    // Not before press + 2 s; late only by the polling and a busy machine.
    #expect(again >= 2.0 && again <= after.timeIntervalSince(before) + 2.5, "\(again) s")

    let refused = try service.ctl(["snooze"])
    #expect(refused.status == 1, "\(refused.stdout)")
    #expect(
      refused.stderr.contains("'nap' was snoozed 1 time (max_snoozes = 1); only stop ends it"),
      "\(refused.stderr)")
    let session = try service.status()["session"] as? [String: Any]
    #expect(session?["state"] as? String == "ringing")
    #expect(session?["snoozes"] as? Int == 1 && session?["max_snoozes"] as? Int == 1)
    let human = try service.ctl(["status"])
    #expect(human.stdout.contains("no more snoozes: only stop ends it"), "\(human.stdout)")
    try service.waitForLog("snooze refused: 'nap' was snoozed 1 time")
    #expect(try service.ctl(["stop"]).status == 0)
    #expect(try service.sessionState() == nil)
    #expect(service.terminate() == 0)
  }
}
