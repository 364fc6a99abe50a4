import AlarmCore
import Testing

@Suite struct DurationTextTests {
  @Test func parsesHoursMinutesSeconds() {
    #expect(DurationText.parse("90s") == .seconds(90))
    #expect(DurationText.parse("9m") == .seconds(540))
    #expect(DurationText.parse("1h30m") == .seconds(5400))
    #expect(DurationText.parse("1h2m3s") == .seconds(3723))
    #expect(DurationText.parse("0s") == .zero)
  }

  @Test func parsesMillisecondsAndDecimalSeconds() {
    #expect(DurationText.parse("250ms") == .milliseconds(250))
    #expect(DurationText.parse("1.5s") == .milliseconds(1500))
    #expect(DurationText.parse("0.01s") == .milliseconds(10))
    #expect(DurationText.parse("1s500ms") == .milliseconds(1500))
    #expect(DurationText.parse("2m0.5s") == .milliseconds(120_500))
    #expect(DurationText.parse("0.000000001s") == .nanoseconds(1))
  }

  @Test func rejectsEverythingElse() {
    for text in [
      "", "30", "s", "1.5m", "1.5ms", "1.s", ".5s", "1m1h", "1s1s", "1ms1s", "30 s", "-5s",
      "1.0000000001s", "99999999s", "١s", "5x", "5sm",
    ] {
      #expect(DurationText.parse(text) == nil, "\(text)")
    }
  }

  @Test func formatsShortest() {
    #expect(DurationText.format(.zero) == "0s")
    #expect(DurationText.format(.seconds(540)) == "9m")
    #expect(DurationText.format(.seconds(5400)) == "1h30m")
    #expect(DurationText.format(.seconds(3723)) == "1h2m3s")
    #expect(DurationText.format(.milliseconds(250)) == "250ms")
    #expect(DurationText.format(.milliseconds(1500)) == "1.5s")
    #expect(DurationText.format(.milliseconds(61_250)) == "1m1.25s")
    #expect(DurationText.format(.nanoseconds(1500)) == "0.0000015s")
  }

  @Test func formatRoundTrips() {
    for ms in [0, 1, 10, 999, 1000, 1001, 59_999, 60_000, 3_600_000, 3_661_001] {
      let d = Duration.milliseconds(ms)
      #expect(DurationText.parse(DurationText.format(d)) == d, "\(ms) ms")
    }
  }

  @Test func spokenForLogLines() {
    #expect(DurationText.spoken(.seconds(42)) == "42 s")
    #expect(DurationText.spoken(.seconds(540)) == "9 min")
    #expect(DurationText.spoken(.seconds(570)) == "9 min 30 s")
    #expect(DurationText.spoken(.seconds(3900)) == "1 h 5 min")
    #expect(DurationText.spoken(.seconds(3 * 86_400)) == "3 days")
  }

  @Test func millisecondsForLatencies() {
    #expect(DurationText.milliseconds(.microseconds(1234)) == "1.23 ms")
    #expect(DurationText.milliseconds(.microseconds(500)) == "0.5 ms")
    #expect(DurationText.milliseconds(.seconds(2)) == "2000.0 ms")
  }
}
