import AlarmCore
import Testing

/// Stream sounds in the config: the URL's form checked offline with line:col,
/// `fallback_sound` a file only, `[audio] stream_lead`, and the earlier prepare point.
@Suite struct StreamConfigTests {
  @Test func aStationIsASoundWithItsFallback() throws {
    let config = try #require(
      validConfig(
        """
        [audio]
        stream_lead = "45s"

        [defaults]
        fallback_sound = "gentle"

        [[alarm]]
        time = "06:30"
        sound = "https://radio.example.org:8443/live.mp3?x=1"
        escalate_sound = "http://[::1]:8000/escalate"
        """))
    let a = try #require(config.alarms.first)
    #expect(a.sound == "https://radio.example.org:8443/live.mp3?x=1")
    #expect(a.isStream && a.fallbackSound == "gentle")
    #expect(a.escalateSound == "http://[::1]:8000/escalate")
    #expect(config.audio.streamLead == .seconds(45))
  }

  @Test func aBadURLIsAnErrorAtItsValue() {
    #expect(
      messages(
        """
        [[alarm]]
        time = "06:30"
        sound = "http://radio example/live"
        [[alarm]]
        time = "07:30"
        sound = "https:///live"
        [[alarm]]
        time = "08:30"
        sound = "http://radio.example:99999/"
        fallback_sound = "http://radio.example/backup"
        """) == [
          "3:9: a URL must not contain spaces; write them as %20",
          "6:9: the URL has no host: write it as http://host/path",
          "9:9: the URL's port '99999' is not a number from 1 to 65535",
          "10:18: 'fallback_sound' must be a file or folder on this machine, not a stream: "
            + "it rings when the network cannot",
        ])
  }

  @Test func streamLeadIsRanged() {
    #expect(
      messages("[audio]\nstream_lead = \"1s\"\n").first?.hasPrefix("2:15: ") == true)
  }

  @Test func aStreamAlarmIsPreparedItsLeadAhead() {
    var stream = alarm("radio", 6, 45)
    stream.sound = "http://127.0.0.1:8000/live"
    var e = makeEngine([stream])
    _ = e.advance(to: at(6, 0))
    let plan = e.wakePlan(now: at(6, 0), prepared: nil, streamLead: .seconds(30))
    #expect(plan.deadline == at(6, 44, 30) && plan.prepare?.alarmID == "radio")
    #expect(e.firingToPrepare(now: at(6, 44, 0), streamLead: .seconds(30)) == nil)
    #expect(e.firingToPrepare(now: at(6, 44, 30), streamLead: .seconds(30))?.alarmID == "radio")
    // A file keeps its two seconds.
    var f = makeEngine([alarm("file", 6, 45)])
    _ = f.advance(to: at(6, 0))
    #expect(
      f.wakePlan(now: at(6, 0), prepared: nil, streamLead: .seconds(30)).deadline == at(6, 44, 58))
  }

  @Test func passwordsAreHiddenInLogs() {
    #expect(
      StreamURL.redacted("http://me:secret@radio.example/live")
        == "http://me:***@radio.example/live")
    #expect(StreamURL.redacted("http://radio.example/a@b") == "http://radio.example/a@b")
  }
}

/// The playlists stations publish, and the helper's wire format.
@Suite struct StreamPlaylistTests {
  @Test func plsEntriesInNumberOrder() {
    let text =
      "[playlist]\r\nNumberOfEntries=2\r\nFile2=http://b.example/2\r\nTitle1=One\r\nFile1=http://a.example/1\r\nLength1=-1\r\nVersion=2\r\n"
    #expect(
      StreamPlaylist.classify(Array(text.utf8))
        == .entries(["http://a.example/1", "http://b.example/2"]))
  }

  @Test func plainM3UAndHLSAreTold() {
    let m3u = "#EXTM3U\n#EXTINF:-1,Station\nhttp://s.example/live.aac\n"
    #expect(StreamPlaylist.classify(Array(m3u.utf8)) == .entries(["http://s.example/live.aac"]))
    let hls = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\nseg0.ts\n"
    #expect(StreamPlaylist.classify(Array(hls.utf8)) == .hls)
    // MP3 bytes are not a playlist.
    #expect(StreamPlaylist.classify([0x49, 0x44, 0x33, 3, 0, 0, 0xff, 0xfb, 0x90]) == .notPlaylist)
    #expect(StreamPlaylist.classify(Array("file:///etc/passwd\n".utf8)) == .notPlaylist)
  }

  @Test func requestLinesRoundTripAndRefuseOtherSchemes() throws {
    let r = StreamWire.Request(
      url: "http://127.0.0.1:8000/live", rate: 44_100, channels: 1, loop: false)
    let parsed = try StreamWire.Request.parse(String(r.line.dropLast())).get()
    #expect(parsed == r)
    guard
      case .failure(let e) = StreamWire.Request.parse("ALARMCLOCK-STREAM/1 url=file:///etc/passwd")
    else {
      Issue.record("file: accepted")
      return
    }
    #expect(e.description == "a stream must be an http:// or https:// URL")
  }

  @Test func framesSplitAnywhere() throws {
    let bytes =
      StreamWire.encode(.init(.ready, text: "live=1 codec=mp3 source_rate=44100 url=http://x/"))
      + StreamWire.encode(.init(.pcm, [1, 0, 2, 0]))
      + StreamWire.encode(.init(.problem, text: "gone"))
    var d = StreamFrameDecoder()
    var got: [StreamWire.Message] = []
    for b in bytes {
      [b].withUnsafeBytes { d.append($0) }
      while let m = try d.next() { got.append(m) }
    }
    #expect(got.map(\.kind) == [.ready, .pcm, .problem])
    #expect(StreamWire.ReadyInfo.parse(got[0].text)?.sourceRate == 44_100)
    #expect(got[2].text == "gone")
    var bad = StreamFrameDecoder()
    [9, 0, 0, 0, 0].withUnsafeBytes { bad.append($0) }
    #expect(throws: StreamWireError.self) { try bad.next() }
  }
}
