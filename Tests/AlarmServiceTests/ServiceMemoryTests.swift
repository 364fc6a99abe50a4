import AlarmCore
import AlarmPlatform
import Testing

@testable import AlarmService

/// When the service gives its clean pages back (docs/performance.md, "Idle"): after
/// start-up and after a ring, never while one sounds.
@Suite struct ServiceMemoryTests {
  typealias H = ServiceHarness

  @Test func pagesAreReleasedWhenIdleAndNeverDuringARing() throws {
    let h = try H(config: H.config(H.alarm("wake", "07:00")), at: H.at(5, 0))
    h.service.startReleasingPages()  // as `run()` does after `start()`
    func releases() -> Int {
      h.log.split(separator: "\n").filter { $0.contains("of the executable's pages") }.count
    }
    try #require(try h.turn { releases() == 1 }, "no release after start-up:\n\(h.log)")
    #expect(h.log.contains("KiB of the libraries'"))

    // (An audio check ending meanwhile arms a release of its own: count from here.)
    let before = releases()
    #expect(try h.request(#"{"cmd":"ring","id":"wake"}"#).contains(#""ok":true"#))
    try #require(try h.turn { h.ringerSaw { if case .firstFrame = $0 { true } else { false } } })
    // More than the release timer's 2 s pass while the ring sounds: nothing is released.
    _ = try h.turn(timeout: 3) { false }
    #expect(releases() == before, "released while ringing:\n\(h.log)")

    #expect(try h.request(#"{"cmd":"stop"}"#).contains(#""ok":true"#))
    #expect(try h.turn { releases() > before }, "no release after the ring:\n\(h.log)")
  }
}
