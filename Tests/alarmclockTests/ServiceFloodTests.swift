import AudioTestSupport
import Foundation
import Testing

/// Issue 15: a flood on the control socket must not reach the button or the ring, and
/// held connections must not use up the descriptors a ring needs.
@Suite(.serialized, .enabled(if: PulseTestServer.available, PulseTestServer.skipComment))
struct ServiceFloodTests {
  typealias Ring = ServiceRingTests
  typealias Input = ServiceInputTests
  static let sink = "alarmclock_service_flood"

  @Test func aKeyPressStopsTheRingWhile200ClientsFlood() throws {
    let dir = try TempDir("service-flood")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    let keys = dir.file("keys")
    #expect(mkfifo(keys, 0o600) == 0)
    let extra = """

      [[input]]
      device = "\(keys)"
      stop = ["KEY_ENTER"]
      """
    let service = try ServiceProcess(
      dir: dir,
      config: try Ring.config(
        time: "03:33", sound: sound, ringFor: "60s", extra: extra, sink: Self.sink))
    defer { service.terminate() }
    let fifo = open(keys, O_WRONLY | O_NONBLOCK)
    try #require(fifo >= 0, "the service does not have \(keys) open:\n\(service.log)")
    defer { close(fifo) }

    let rec = try SinkRecorder(directory: dir.path, sink: Self.sink)
    #expect(try service.ctl(["ring", "wake"]).status == 0)
    try service.waitForLog("ringing 'wake'", timeout: 10)
    let flood = try FloodClients(
      socket: service.socket, connections: 200, request: #"{"cmd":"next","count":100}"#)
    defer { flood.stop() }
    // Counts, not rates: on a machine whose cores are busy elsewhere (CI beside
    // stress-ng) a debug service answers only tens of these 100-firing requests a second.
    try waitFor("the flood to be answered", timeout: 60) { flood.replyCount >= 600 }
    let floodingAt = realtimeNow()
    try waitFor("more of the flood", timeout: 60) { flood.replyCount >= 1200 }

    let pressAt = realtimeNow()
    Input.write(fifo, Input.key(28, 1))
    Input.write(fifo, Input.key(28, 0))
    try service.waitForLog("press: stop, ", timeout: 5)
    let stoppedAt = realtimeNow()
    rec.record(seconds: 1.0)
    let repliesDuringPress = flood.replyCount
    flood.stop()
    let samples = rec.finish(through: pressAt + 1.0)
    #expect(repliesDuringPress >= 1200, "the flood was not being served")
    // Within 500 ms of the press on a busy machine (the bench measures the real figure).
    #expect(stoppedAt - pressAt < 0.5, "stopped \(stoppedAt - pressAt) s after the press")
    #expect(Ring.sounding(samples, rec, from: floodingAt, to: pressAt - 0.02))
    #expect(Ring.silent(samples, rec, from: pressAt + 0.5, to: pressAt + 1.0))
    #expect(try service.sessionState() == nil)
    #expect(service.terminate() == 0)
  }

  @Test func underALowDescriptorLimitHeldClientsMakeRoomAndTheRingStillPlays() throws {
    let dir = try TempDir("service-flood")
    defer { dir.remove() }
    let sound = try Ring.writeTone(dir)
    // 128 descriptors: the service keeps 64 for itself and takes (128 - 64) / 2 = 32 clients.
    let service = try ServiceProcess(
      dir: dir,
      config: try Ring.config(time: "03:33", sound: sound, sink: ServiceSink.quiet),
      launcher: ["/usr/bin/prlimit", "--nofile=128:128", "--"])
    defer { service.terminate() }
    var held: [RawClient] = []
    for _ in 0..<48 { held.append(try RawClient(socket: service.socket, timeout: 5)) }
    // Each connection past the cap closed the one idle the longest, with a reason.
    let first = try held[0].readLines(1)
    #expect(first.first?.contains("closed to make room") == true, "\(first)")
    let ring = try service.ctl(["ring", "wake"])
    #expect(ring.status == 0, "\(ring.stderr)")
    try waitFor("the ring's first frame", timeout: 10) {
      try Input.inputs(service)["audio"]?.detail.hasPrefix("playing on") == true
    }
    // The newest held connections are still served.
    try held[47].send(Array(#"{"cmd":"status"}"#.utf8) + [10])
    #expect(try held[47].readLines(1).first?.hasPrefix(#"{"#) == true)
    let log = service.log
    #expect(!log.contains("Too many open files") && !log.contains("EMFILE"), "\(log)")
    #expect(try service.ctl(["stop"]).status == 0)
    #expect(service.terminate() == 0)
  }
}
