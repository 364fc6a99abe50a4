import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// The state saver alone, on a real loop and a real directory.
@Suite struct StateSaverTests {
  @Test func aChangeRightAfterAWriteWaitsForTheIntervalAndItsWaiterWithIt() throws {
    let dir = ServiceHarness.tempDirectory()
    defer { _ = system("rm -rf '\(dir)'") }
    let loop = try EventLoop()
    let log = Logger(fd: open("/dev/null", O_WRONLY | O_CLOEXEC), environment: Environment([:]))
    let saver = try StateSaver(
      directory: dir, loop: loop, log: log, minInterval: .milliseconds(200))
    var state = ServiceState()
    state.marks.skipNext["a"] = LocalDate(year: 2040, month: 1, day: 2)
    saver.save(state)
    #expect(saver.writeCount == 1 && !saver.isPending)
    var answered = 0
    saver.whenSaved { answered += 1 }
    #expect(answered == 1)  // nothing pending: at once

    // Two more changes inside the interval: one write at its end, both waiters after it.
    state.marks.skipNext["b"] = LocalDate(year: 2040, month: 1, day: 2)
    saver.save(state)
    saver.whenSaved { answered += 1 }
    state.marks.skipNext["a"] = nil
    saver.save(state)
    saver.whenSaved { answered += 1 }
    #expect(saver.writeCount == 1 && saver.isPending && answered == 1)
    let deadline = TimerFd.Clock.monotonic.now() + .seconds(10)
    while answered < 3 && TimerFd.Clock.monotonic.now() < deadline {
      try loop.runOnce(timeout: .milliseconds(50))
    }
    #expect(answered == 3 && saver.writeCount == 2)
    let onDisk = try StateCodec.decode(try FileSystem.readFile(dir + "/state.json"))
    #expect(onDisk.marks.skipNext.keys.sorted() == ["b"])
  }
}
