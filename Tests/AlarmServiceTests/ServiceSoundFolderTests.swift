import AlarmAudio
import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// Sound folders through the service: the pick at the prepare point, the turn kept in the
/// state file across rings and restarts, and an empty folder ringing the fallback tone.
@Suite(.serialized) struct ServiceSoundFolderTests {
  typealias H = ServiceHarness

  /// A short 16-bit mono WAV of a sine at `hz`.
  static func wav(hz: Double, rate: Int = 8000, seconds: Double = 0.25) -> [UInt8] {
    let frames = Int(Double(rate) * seconds)
    func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    var b = Array("RIFF".utf8) + le(36 + frames * 2, 4) + Array("WAVEfmt ".utf8)
    b += le(16, 4) + le(1, 2) + le(1, 2) + le(rate, 4) + le(rate * 2, 4) + le(2, 2) + le(16, 2)
    b += Array("data".utf8) + le(frames * 2, 4)
    for i in 0..<frames {
      b += le(Int(Int16(8000 * sin(2 * Double.pi * hz * Double(i) / Double(rate)))) & 0xFFFF, 2)
    }
    return b
  }

  static func writeBytes(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw HarnessError("open \(path): errno \(errno)") }
    defer { close(fd) }
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
      throw HarnessError("write \(path)")
    }
  }

  /// `sounds/mornings` with a.wav and b.wav (and what a folder holds besides sounds).
  static func makeFolder(_ dir: String, files: Bool = true) throws {
    mkdir(dir + "/sounds", 0o755)
    mkdir(dir + "/sounds/mornings", 0o755)
    mkdir(dir + "/sounds/mornings/sub", 0o755)
    try writeBytes(wav(hz: 440), to: dir + "/sounds/mornings/sub/c.wav")
    try H.write("not a sound", to: dir + "/sounds/mornings/notes.txt")
    guard files else { return }
    try writeBytes(wav(hz: 440), to: dir + "/sounds/mornings/a.wav")
    try writeBytes(wav(hz: 660), to: dir + "/sounds/mornings/b.wav")
    try writeBytes(wav(hz: 880), to: dir + "/sounds/mornings/.hidden.wav")
  }

  static func config(_ dir: String, order: String = "rotate") -> String {
    H.config(
      H.alarm("wake", "07:00") + "sound = \"mornings\"\nsound_order = \"\(order)\"\n",
      extra: ""
    ).replacing(
      "[audio]", with: "sound_dirs = [\"\(dir)/sounds\"]\n\n[audio]")
  }

  /// Rings the day's 07:00 (prepare point, firing), checks the file, stops it.
  func ring(_ h: H, day: Int, expect file: String) throws {
    h.fireTimer()  // the prepare point: the pick happens here
    #expect(h.plan.deadline == H.at(7, 0) + .seconds(Int64(day) * 86_400))
    h.fireTimer()
    try #require(h.service.engine.state.session?.alarmID == "wake", "no ring:\n\(h.log)")
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains(#"/sounds/mornings/\#(file)""#), "\(status)")
    #expect(h.service.engine.state.lastSounds["wake"] == file)
    #expect(try h.turn { (try? h.savedState().lastSounds["wake"]) == file }, "not saved")
    #expect(try h.request(#"{"cmd":"stop"}"#).contains(#""ok":true"#))
  }

  @Test func rotateTakesTurnsAcrossRingsAndARestart() throws {
    let dir = H.tempDirectory()
    var state: [UInt8] = []
    do {
      let h = try H(
        config: Self.config(dir), at: H.at(6, 59), dir: dir,
        prepare: { _, d in try Self.makeFolder(d) })
      try ring(h, day: 0, expect: "a.wav")
      try ring(h, day: 1, expect: "b.wav")
      state = try FileSystem.readFile(h.statePath)
    }
    // A new service with the saved state: the turn goes on, and wraps.
    let dir2 = H.tempDirectory()
    let h = try H(
      config: Self.config(dir2), at: H.at(6, 59) + .seconds(2 * 86_400), dir: dir2,
      prepare: { _, d in
        try Self.makeFolder(d)
        mkdir(d + "/state", 0o700)
        try Self.writeBytes(state, to: d + "/state/state.json")
      })
    try ring(h, day: 2, expect: "a.wav")
  }

  @Test func anEmptyFolderRingsTheFallbackToneAndStatusSaysSo() throws {
    let dir = H.tempDirectory()
    let h = try H(
      config: Self.config(dir, order: "shuffle"), at: H.at(6, 59), dir: dir,
      prepare: { _, d in try Self.makeFolder(d, files: false) })
    h.fireTimer()
    h.fireTimer()
    try #require(h.service.engine.state.session != nil)
    try #require(
      try h.turn { h.ringerSaw { if case .fallbackTone = $0 { true } else { false } } },
      "no fallback tone:\n\(h.log)")
    #expect(h.log.contains("sound folder has no playable file"))
    #expect(h.log.contains("ringing the fallback tone"))
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(
      status.contains(#""sound_problem":"#) && status.contains("no playable file"), "\(status)")
  }
}

extension ServiceSoundFolderTests {
  @Test func aFolderFileThatFailsToDecodeRingsTheFallbackTone() throws {
    let dir = H.tempDirectory()
    let h = try H(
      config: Self.config(dir), at: H.at(6, 59, 59), dir: dir,
      prepare: { _, d in
        try Self.makeFolder(d, files: false)
        try H.write("RIFF, but not really a sound", to: d + "/sounds/mornings/broken.wav")
      })
    h.fireTimer()
    try #require(
      try h.turn { h.ringerSaw { if case .fallbackTone = $0 { true } else { false } } },
      "no fallback tone:\n\(h.log)")
    let status = try h.request(#"{"cmd":"status"}"#)
    #expect(status.contains("broken.wav") && status.contains(#""sound_problem":"#), "\(status)")
    #expect(h.log.contains("broken.wav") && h.log.contains("ringing the fallback tone"))
  }
}

/// `escalate_after` through the service: logged, in `status`, and reset by a snooze.
@Suite(.serialized) struct ServiceEscalationTests {
  typealias H = ServiceHarness

  @Test func aRingEscalatesAndASnoozeStartsTheCountAgain() throws {
    let h = try H(
      // 4 s of real playback: long enough that the first status is asked before it even
      // when the machine is busy.
      config: H.config(H.alarm("wake", "07:00") + "volume = 40\nescalate_after = \"4s\"\n"),
      at: H.at(6, 59, 59))
    h.fireTimer()
    try #require(h.service.engine.state.session != nil)
    // The playback thread may run real-time while this one waits for a busy CPU, so the
    // escalation can come before the first status: the status says what the loop had seen.
    let escalatedEvent: (RingerEvent) -> Bool = { if case .escalated = $0 { true } else { false } }
    let seenBefore = h.ringerSaw(escalatedEvent)
    let first = try h.request(#"{"cmd":"status"}"#)
    if !h.ringerSaw(escalatedEvent) {
      #expect(first.contains(#""escalated":false"#), "\(first)")
    } else if seenBefore {
      #expect(first.contains(#""escalated":true"#), "\(first)")
    }
    try #require(
      try h.turn(timeout: 30) {
        h.ringerSaw { if case .escalated = $0 { true } else { false } }
      },
      "no escalation:\n\(h.log)")
    #expect(h.log.contains("the alarm is escalating: volume rising to 100 %"))
    #expect(try h.request(#"{"cmd":"status"}"#).contains(#""escalated":true"#))
    #expect(try h.request(#"{"cmd":"snooze"}"#).contains(#""ok":true"#))
    #expect(try h.request(#"{"cmd":"status"}"#).contains(#""escalated":false"#))
  }
}
