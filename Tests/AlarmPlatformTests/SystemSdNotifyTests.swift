import AlarmPlatform
import AudioTestSupport
import Glibc
import Testing

@Suite struct SystemSdNotifyTests {
  /// A bound datagram socket standing in for systemd's notify socket.
  private func receiver(at path: String) throws -> FileDescriptor {
    let fd = try FileDescriptor.unixSocket(Int32(SOCK_DGRAM.rawValue))
    try fd.bind(to: UnixSocketAddress(path))
    return fd
  }

  private func receive(_ fd: FileDescriptor) throws -> String {
    var pfd = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&pfd, 1, 5000) == 1)
    return String(decoding: try fd.readSome(maxCount: 4096), as: UTF8.self)
  }

  @Test func sendsStatesToAPathSocket() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    let path = dir.file("notify")
    let systemd = try receiver(at: path)
    let notify = try #require(try SdNotify(environment: Environment(["NOTIFY_SOCKET": path])))
    try notify.ready()
    #expect(try receive(systemd) == "READY=1")
    try notify.status("next: Mon 06:45 Work\nsecond line")
    #expect(try receive(systemd) == "STATUS=next: Mon 06:45 Work second line")
    try notify.watchdog()
    #expect(try receive(systemd) == "WATCHDOG=1")
    try notify.stopping()
    #expect(try receive(systemd) == "STOPPING=1")
    try notify.ready(status: "ready")
    #expect(try receive(systemd) == "READY=1\nSTATUS=ready")
  }

  @Test func sendsToAnAbstractSocket() throws {
    let name = "@alarmclock-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let systemd = try receiver(at: name)
    let notify = try #require(try SdNotify(environment: Environment(["NOTIFY_SOCKET": name])))
    try notify.ready()
    #expect(try receive(systemd) == "READY=1")
  }

  @Test func absentSocketMeansNoNotifier() throws {
    #expect(try SdNotify(environment: Environment()) == nil)
    #expect(try SdNotify(environment: Environment(["NOTIFY_SOCKET": ""])) == nil)
    let long = "/" + String(repeating: "x", count: 200)
    #expect(throws: SystemError.self) {
      _ = try SdNotify(environment: Environment(["NOTIFY_SOCKET": long]))
    }
  }

  @Test func sendToAVanishedSocketThrows() throws {
    let notify = try #require(
      try SdNotify(environment: Environment(["NOTIFY_SOCKET": "/nonexistent/notify"])))
    #expect(throws: SystemError.self) { try notify.ready() }
  }

  @Test func watchdogIntervalIsHalfThePeriod() {
    let pid = getpid()
    #expect(
      SdNotify.watchdogInterval(environment: Environment(["WATCHDOG_USEC": "20000000"]), pid: pid)
        == .seconds(10))
    #expect(
      SdNotify.watchdogInterval(
        environment: Environment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "\(pid)"]), pid: pid)
        == .milliseconds(1500))
    #expect(
      SdNotify.watchdogInterval(
        environment: Environment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "1"]), pid: pid)
        == nil)
    #expect(SdNotify.watchdogInterval(environment: Environment(), pid: pid) == nil)
    #expect(
      SdNotify.watchdogInterval(environment: Environment(["WATCHDOG_USEC": "0"]), pid: pid) == nil)
    #expect(
      SdNotify.watchdogInterval(environment: Environment(["WATCHDOG_USEC": "abc"]), pid: pid)
        == nil)
  }
}
