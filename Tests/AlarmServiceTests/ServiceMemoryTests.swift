import AlarmCore
import AlarmPlatform
import Testing

@testable import AlarmService

/// When the service gives its clean pages back (docs/performance.md, "Idle"): after
/// start-up and after a ring, never while one sounds; a request's later release never
/// puts off an earlier one.
@Suite struct ServiceMemoryTests {
  typealias H = ServiceHarness

  @Test func pagesAreReleasedWhenIdleAndNeverDuringARing() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(5, 0))
    h.service.startReleasingPages()  // as `run()` does after `start()`
    func releases() -> Int { h.service.pageReleases }
    // A request meanwhile (30 s) does not put off start-up's release (2 s).
    #expect(try h.request(#"{"cmd":"status"}"#).contains(#""ok":true"#))
    try #require(try h.turn { releases() == 1 }, "no release after start-up:\n\(h.log)")
    #expect(h.log.contains("KiB of the libraries'"))
    #expect(h.service.pageReleaseDue == nil)

    // An audio check ending meanwhile arms a release of its own: count from here.
    let before = releases()
    #expect(try h.request(#"{"cmd":"ring","id":"wake"}"#).contains(#""ok":true"#))
    try #require(try h.turn { h.ringerSaw { if case .firstFrame = $0 { true } else { false } } })
    // A release due while the ring sounds does nothing.
    h.service.releasePagesSoon(after: .milliseconds(10))
    try h.turn(timeout: 1) { h.service.pageReleaseDue == nil }
    #expect(h.service.pageReleaseDue == nil)
    #expect(releases() == before, "released while ringing:\n\(h.log)")

    // The stop's 2 s win over the stop request's 30 s.
    #expect(try h.request(#"{"cmd":"stop"}"#).contains(#""ok":true"#))
    #expect(try h.turn { releases() > before }, "no release after the ring:\n\(h.log)")
  }
}
