import AlarmCore
import Testing

/// Requests from the socket through the engine to reply lines.
@Suite struct EngineControlTests {
  @Test func requestLinesToReplyLines() throws {
    let berlin = try zone("Europe/Berlin")
    let work = Alarm(id: "work", time: clock("06:45"), days: .daily, label: "Work")
    let gym = Alarm(id: "gym", time: clock("07:30"), days: .daily)
    var e = AlarmEngine(alarms: [work, gym], source: Schedule(alarms: [work, gym], zone: berlin))
    let format = { (i: Instant) in berlin.text(i) }

    func send(_ line: String, at now: Instant) throws -> String {
      let request = try ControlRequest(line: Array(line.utf8))
      guard let (reply, _) = e.perform(request, now: now, format: format) else { return "service" }
      return String(decoding: reply.encodedLine().dropLast(), as: UTF8.self)
    }

    let evening = berlin.wall("2026-12-02", "22:00")
    _ = e.advance(to: evening)
    #expect(try send(#"{"cmd":"status"}"#, at: evening) == "service")
    #expect(
      try send(#"{"cmd":"snooze"}"#, at: evening)
        == #"{"error":{"code":"not-ringing","message":"no alarm is ringing"},"ok":false}"#)
    #expect(
      try send(#"{"cmd":"next","count":2}"#, at: evening)
        == #"{"next":[{"at":"2026-12-03T06:45:00+01:00","id":"work","label":"Work","#
        + #""skipped":[],"sound":null,"time":"06:45"},"#
        + #"{"at":"2026-12-03T07:30:00+01:00","id":"gym","label":null,"#
        + #""skipped":[],"sound":null,"time":"07:30"}],"ok":true}"#
    )
    #expect(
      try send(#"{"cmd":"skip","id":"wrok"}"#, at: evening)
        == #"{"error":{"code":"unknown-alarm","#
        + #""message":"no alarm with id 'wrok' (did you mean 'work'?)"},"ok":false}"#
    )
    #expect(
      try send(#"{"cmd":"skip","id":"gym"}"#, at: evening)
        == #"{"at":"2026-12-03T07:30:00+01:00","date":"2026-12-03","id":"gym","ok":true}"#)
    #expect(
      try send(#"{"cmd":"unskip","id":"gym"}"#, at: evening)
        == #"{"at":"2026-12-03T07:30:00+01:00","date":null,"id":"gym","ok":true}"#)
    #expect(try send(#"{"cmd":"unskip","id":"gym"}"#, at: evening).contains("not-skipped"))

    let morning = berlin.wall("2026-12-03", "06:45")
    #expect(e.advance(to: morning).sound == ["start work 600s"])
    #expect(
      try send(#"{"cmd":"snooze"}"#, at: morning + .seconds(60))
        == #"{"ok":true,"until":"2026-12-03T06:55:00+01:00"}"#)

    let parts = e.statusParts(now: morning + .seconds(61), nextCount: 1, format: format)
    #expect(
      parts.session
        == SessionStatus(
          id: "work", label: "Work", state: .snoozed, until: "2026-12-03T06:55:00+01:00", snoozes: 1
        ))
    #expect(parts.next.map(\.id) == ["gym"])
    #expect(parts.history.map(\.kind) == [.rung])
    #expect(try send(#"{"cmd":"stop"}"#, at: morning + .seconds(62)) == #"{"ok":true}"#)
    #expect(try send(#"{"cmd":"ring","id":"gym"}"#, at: morning + .seconds(63)) == #"{"ok":true}"#)
    #expect(e.statusParts(now: morning + .seconds(64), format: format).session?.state == .ringing)
  }
}
