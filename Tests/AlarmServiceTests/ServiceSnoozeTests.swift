import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// Snoozes counted from the press to the millisecond, and `max_snoozes`, through the
/// control socket, the realtime timer's plan and the state file.
@Suite(.serialized) struct ServiceSnoozeTests {
  typealias H = ServiceHarness

  @Test func aSnoozeRingsAgainAtThePressPlusItsLengthAndTheLimitHolds() throws {
    let h = try H(
      config: H.config(H.alarm("wake", "07:00"), extra: "max_snoozes = 1"), at: H.at(6, 59, 59))
    h.fireTimer()
    try #require(h.service.engine.state.session?.alarmID == "wake")

    // A press 1.5 s into the ring: the snooze of 3 s ends 4.5 s after the firing.
    let press = H.at(7, 0, 1) + .milliseconds(500)
    h.clock.now = press
    let reply = try h.request(#"{"cmd":"snooze"}"#)
    #expect(reply.contains(#""ok":true"#), "\(reply)")
    let again = H.at(7, 0, 4) + .milliseconds(500)
    #expect(h.plan.deadline == again)
    try #require(
      try h.turn { (try? h.savedState())?.session?.snoozeUntil == again },
      "the snooze end is not on disk:\n\(h.log)")
    #expect((try? FileSystem.readText(h.statePath))?.contains("2209100404.5") == true)

    h.fireTimer()
    #expect(h.service.engine.state.session?.isSnoozed == false)
    #expect(h.service.engine.state.session?.periodStart == again)
    #expect(h.plan.deadline == again + .seconds(30))

    // The second snooze is refused: it keeps ringing, and says so.
    h.clock.now = again + .seconds(1)
    let refused = try h.request(#"{"cmd":"snooze"}"#)
    #expect(refused.contains(#""code":"snooze-limit""#), "\(refused)")
    #expect(h.service.engine.soundPlaying && h.service.engine.state.session?.isSnoozed == false)
    #expect(h.log.contains("snooze refused: 'wake' was snoozed 1 time (max_snoozes = 1)"))
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains(#""max_snoozes":1"#) && status.contains(#""snoozes":1"#), "\(status)")
    #expect(try h.request(#"{"cmd":"stop"}"#).contains(#""ok":true"#))
    #expect(h.service.engine.state.session == nil)
  }
}
