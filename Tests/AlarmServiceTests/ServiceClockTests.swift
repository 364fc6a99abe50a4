import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// Clock trust in the service: the synchronisation flag (a fake timesyncd directory, the
/// kernel's state faked as refused, as under the unit's sandbox) and clock jumps.
@Suite(.serialized) struct ServiceClockTests {
  typealias H = ServiceHarness

  func harness(at start: Instant) throws -> H {
    let dir = H.tempDirectory()
    return try H(
      config: H.config(H.alarm("wake", "07:00")), at: start, dir: dir,
      options: {
        $0.timesyncDirectory = dir + "/timesync"
        $0.kernelClockState = { .unavailable }
      },
      prepare: { _, dir in try FileSystem.createDirectory(dir + "/timesync", mode: 0o755) })
  }

  @Test func aJumpAndTheSynchronisationAreLoggedAndInStatus() throws {
    let h = try harness(at: H.at(6, 0))
    #expect(h.log.contains("the clock is not synchronised yet"))
    var status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains(#""synchronized":false"#) && status.contains(#""plausible":true"#))
    #expect(status.contains(#""last_jump_s":null"#) && status.contains(#""synchronized_at":null"#))

    // timesyncd sets the clock 3 days 4 hours ahead and touches its flag.
    try H.write("", to: h.dir + "/timesync/synchronized")
    h.clock.now = H.at(6, 0) + .seconds(3 * 86_400 + 4 * 3600)
    h.service.timeReached(.clockChanged)
    #expect(h.log.contains("the clock was set: jumped +3 d 4 h"), "\(h.log)")
    #expect(h.log.contains("the clock is now synchronised"))
    status = try h.request(#"{"cmd":"status"}"#)
    guard case .ok(.status(let report))? = try? ControlReply(line: Array(status.utf8), for: .status)
    else {
      Issue.record("not a status reply: \(status)")
      return
    }
    #expect(report.clockSynchronized == true && report.clockPlausible == true)
    #expect(report.clockSynchronizedAt == "2040-01-05T10:00:00+00:00")
    let jump = try #require(report.clockLastJump)
    #expect(jump > .seconds(273_599) && jump <= .seconds(273_600), "\(jump)")
    #expect(StatusText.render(report).contains("last set: jumped +3 d 4 h"))
  }

  @Test func aClockBeforeTheReleaseIsImplausible() throws {
    let h = try harness(at: Instant(seconds: 5))
    #expect(h.log.contains("before this alarmclock was released"), "\(h.log)")
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains(#""plausible":false"#), "\(status)")
  }
}
