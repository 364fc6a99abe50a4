import AlarmCore
import Testing

/// Whether a clock is plausible, and how jumps are written.
@Suite struct ClockTrustTests {
  let utc = TimeZoneRules.utc

  @Test func aClockBeforeTheReleaseIsWrong() {
    let release = Instant(seconds: Int64(AlarmclockVersion.releaseDate.daysSinceEpoch) * 86_400)
    #expect(ClockTrust.isPlausible(release))
    // A day of slack for zones ahead of UTC and builds made the evening before.
    #expect(ClockTrust.isPlausible(release - .seconds(86_400)))
    #expect(!ClockTrust.isPlausible(release - .seconds(86_401)))
    #expect(!ClockTrust.isPlausible(Instant(seconds: 5)))
    #expect(ClockTrust.warning(now: release, zone: utc) == nil)
    let w = ClockTrust.warning(now: Instant(seconds: 5), zone: utc)
    #expect(w?.hasPrefix("warning: the clock says 1970-01-01T00:00:05+00:00, before this") == true)
  }

  @Test func jumpsAreWrittenInTheirTwoLargestUnits() {
    #expect(ClockTrust.jumpText(.seconds(273_600)) == "+3 d 4 h")
    #expect(ClockTrust.jumpText(.seconds(259_200)) == "+3 d")
    #expect(ClockTrust.jumpText(.seconds(-303)) == "-5 min 3 s")
    #expect(ClockTrust.jumpText(.milliseconds(250)) == "+0.25 s")
    #expect(ClockTrust.jumpText(.seconds(2)) == "+2 s")
    #expect(ClockTrust.jumpText(.seconds(3600)) == "+1 h")
    #expect(ClockTrust.jumpText(.milliseconds(273_599_990)) == "+3 d 4 h")
  }
}
