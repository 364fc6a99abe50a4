import AlarmStreamHelper
import Testing

/// The helper's pure rules: pacing, silence, playlist detection, ICY titles.
struct HelperRulesTests {
  @Test func thePacerSendsThePrerollThenRealTime() {
    var pacer = Pacer(rate: 1000)
    #expect(pacer.allowance(at: .seconds(10)) == 1000)
    pacer.sent(1000, at: .seconds(10))
    #expect(pacer.allowance(at: .seconds(10)) == 0)
    #expect(pacer.allowance(at: .milliseconds(10_020)) == 20)
    pacer.sent(20, at: .milliseconds(10_020))
    // A late wake-up sends what is owed on the absolute schedule.
    #expect(pacer.allowance(at: .milliseconds(10_100)) == 80)
    #expect(pacer.nextWake(after: .milliseconds(10_101)) == .milliseconds(10_120))
  }

  @Test func thePacerNeverBurstsMoreThanThePrerollAfterAnUnderrun() {
    var pacer = Pacer(rate: 1000)
    pacer.sent(1000, at: .seconds(0))
    // Nothing to send for 5 s: then at most the pre-roll at once.
    #expect(pacer.allowance(at: .seconds(5)) == 1000)
  }

  @Test func silenceIsFourSecondsBelowMinus55dBFS() {
    var watch = SilenceWatch(rate: 100, channels: 2)
    let quiet = [Int16](repeating: 57, count: 2 * 100)
    let loud = [Int16](repeating: 0, count: 2 * 99) + [0, -58]
    for _ in 0..<3 { #expect(!quiet.withUnsafeBytes { watch.feed($0) }) }
    #expect(!loud.withUnsafeBytes { watch.feed($0) })
    for _ in 0..<3 { #expect(!quiet.withUnsafeBytes { watch.feed($0) }) }
    #expect(quiet.withUnsafeBytes { watch.feed($0) })
    #expect(watch.problem == "the station has sent only silence for 4 s")
  }

  @Test func playlistsAreReadByExtensionOrMIMEType() {
    #expect(PlaylistRule.readsAsPlaylist(urls: ["http://h/a.PLS?x=1"], mimeType: nil))
    #expect(PlaylistRule.readsAsPlaylist(urls: ["http://h/a.m3u"], mimeType: "audio/mpeg"))
    #expect(!PlaylistRule.readsAsPlaylist(urls: ["http://h/a.m3u8"], mimeType: nil))
    #expect(
      PlaylistRule.readsAsPlaylist(urls: ["http://h/x"], mimeType: "audio/x-scpls; charset=utf-8"))
    #expect(PlaylistRule.readsAsPlaylist(urls: ["http://h/x", "http://h/x.pls"], mimeType: nil))
    #expect(!PlaylistRule.readsAsPlaylist(urls: ["http://h/live"], mimeType: "audio/mpeg"))
    #expect(PlaylistRule.mayBeText(ArraySlice(Array("[playlist]\r\nFile1=x\n".utf8))))
    #expect(!PlaylistRule.mayBeText([0x49, 0x44, 0x33, 0x04, 0x00]))
  }

  @Test func icyTitlesKeepTheirApostrophes() {
    #expect(
      IcyMetadata.streamTitle("StreamTitle='Guns N' Roses - Patience';StreamUrl='';")
        == "Guns N' Roses - Patience")
    #expect(IcyMetadata.streamTitle("StreamTitle='Cut short") == "Cut short")
    #expect(IcyMetadata.streamTitle("StreamUrl='x';") == nil)
  }
}
