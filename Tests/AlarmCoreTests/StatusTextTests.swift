import AlarmCore
import Testing

/// What `alarmclock status` prints, from a reply built by hand.
@Suite struct StatusTextTests {
  @Test func aFullReport() {
    let report = StatusReport(
      version: "0.1.0",
      config: ConfigStatus(
        path: "/etc/alarmclock/alarms.toml", ok: false,
        errors: ["/etc/alarmclock/alarms.toml:3:8: 'time' must be a time like \"06:45\""]),
      clockSynchronized: false,
      session: SessionStatus(
        id: "work", label: "Work", state: .snoozed, until: "2026-12-03T06:54:00+01:00",
        snoozes: 2),
      next: [
        UpcomingFiring(id: "gym", label: nil, at: "2026-12-03T07:30:00+01:00"),
        UpcomingFiring(id: "nap", label: "午睡", at: "2026-12-03T13:30:15+01:00"),
      ],
      history: [
        HistoryItem(
          kind: .missed, id: "nap", label: "Nap", firing: "2026-12-02T14:30:00+01:00",
          at: "2026-12-02T16:00:00+01:00", more: 2)
      ],
      inputs: [
        InputStatus(name: "gpio", available: false, detail: "/dev/gpiochip0: no such file"),
        InputStatus(name: "terminal", available: true, detail: "space snoozes, Enter stops"),
      ])
    #expect(
      StatusText.render(report) == """
        alarmclock 0.1.0, config /etc/alarmclock/alarms.toml: has errors, the last good config is in force
          /etc/alarmclock/alarms.toml:3:8: 'time' must be a time like "06:45"
        clock: not synchronised yet (alarms follow the clock as it is now)
        snoozed: Work (work) rings again at 2026-12-03 06:54, snoozed 2 times
        next:
          2026-12-03 07:30  gym (gym)
          2026-12-03 13:30:15  午睡 (nap)
        last 12 hours:
          missed Nap (nap) of 2026-12-02 14:30 (and 2 earlier)
        inputs:
          gpio: unavailable: /dev/gpiochip0: no such file
          terminal: space snoozes, Enter stops
        """)
  }

  @Test func aQuietService() {
    let report = StatusReport(
      version: "0.1.0", config: ConfigStatus(path: "a.toml", ok: true), clockSynchronized: nil,
      session: SessionStatus(
        id: "work", label: nil, state: .ringing, until: "2026-12-03T06:55:00+01:00", snoozes: 1),
      next: [], history: [], inputs: [])
    #expect(
      StatusText.render(report) == """
        alarmclock 0.1.0, config a.toml: ok
        clock: synchronisation unknown
        ringing: work until 2026-12-03 06:55, snoozed 1 time
        next: no alarm is set
        inputs:
        """)
  }

  @Test func instantsAreShortenedAndOddTextKept() {
    #expect(StatusText.instant("2026-12-07T06:45:00+01:00") == "2026-12-07 06:45")
    #expect(StatusText.instant("2026-12-07T06:45:30Z") == "2026-12-07 06:45:30")
    #expect(StatusText.instant("soon") == "soon")
  }

  /// A file with thousands of bad alarms keeps the reply small: 99 errors and a summary,
  /// in `status` and in the `reload` error alike, and a round trip keeps them as they are.
  @Test func manyConfigErrorsAreSummedUp() throws {
    let errors = (1...5000).map { "a.toml:\($0):8: 'time' must be a time like \"06:45\"" }
    let status = ConfigStatus(path: "a.toml", ok: false, errors: errors)
    #expect(status.errors.count == 100)
    #expect(status.errors.last == "... and 4901 more errors ('alarmclock check' lists them all)")
    #expect(ConfigStatus(path: "a.toml", ok: false, errors: status.errors) == status)
    let reload = ControlReply.failure(ControlError(.configInvalid, "bad", details: errors))
    let line = reload.encodedLine()
    #expect(line.count < 10_000)
    #expect(try ControlReply(line: line.dropLast(), for: .reload) == reload)
  }
}
