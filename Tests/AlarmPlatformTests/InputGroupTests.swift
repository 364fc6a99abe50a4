import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@Suite(.serialized) struct InputGroupTests {
  @Test func missingPathIsReportedOnceAndOpenedWhenItAppears() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    let group = EvdevInputGroup(
      selector: .path(dir + "/event0"), bindings: [KeyBinding(code: 128)], grab: false,
      inputDirectory: dir)
    let watch = try InputHotplugWatch(directories: group.watchDirectories)
    #expect(group.rescan().failures == [.deviceNotFound(dir + "/event0")])
    #expect(group.rescan().failures.isEmpty)  // not repeated
    #expect(!group.isAvailable)

    InputFixture.mkfifo(dir + "/event0")
    var pfd = pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)
    #expect(poll(&pfd, 1, 2000) == 1)
    #expect(!watch.read().isEmpty)
    let rescan = group.rescan()
    #expect(rescan.opened.map(\.path) == [dir + "/event0"])
    #expect(group.isAvailable)

    // Its keys flow through; a writer closing is no end of file (the FIFO is
    // open read-write), so a second writer carries on.
    let w = open(dir + "/event0", O_WRONLY)
    InputFixture.write(w, InputFixture.key(128, 1, ms: 1000) + InputFixture.key(128, 0, ms: 1100))
    let path = try #require(group.path(forFD: rescan.opened[0].fd))
    let signals = group.readable(path: path)
    #expect(signals.count == 1)
    if case .press(let p) = signals.first { #expect(p.kind == .short) }
    close(w)
    #expect(group.readable(path: path).isEmpty)
    let w2 = open(dir + "/event0", O_WRONLY)
    InputFixture.write(w2, InputFixture.key(128, 1, ms: 2000) + InputFixture.key(128, 0, ms: 2100))
    close(w2)
    #expect(group.readable(path: path).count == 1)
    // Removing the node (the watch reports it) forgets the device.
    unlink(dir + "/event0")
    #expect(poll(&pfd, 1, 2000) == 1)
    #expect(watch.read().contains(.disappeared(dir + "/event0")))
    #expect(group.remove(path: path)?.path == dir + "/event0")
    #expect(!group.isAvailable)
  }

  @Test func globOpensEachDeviceOnceEvenThroughSymlinks() {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    _ = mkdir(dir + "/by-id", 0o755)
    InputFixture.mkfifo(dir + "/event3")
    InputFixture.mkfifo(dir + "/event4")
    _ = symlink(dir + "/event3", dir + "/by-id/usb-A-event-kbd")
    _ = symlink(dir + "/event3", dir + "/by-id/usb-A-if01-event-kbd")
    _ = symlink(dir + "/event4", dir + "/by-id/usb-B-event-kbd")
    let group = EvdevInputGroup(
      selector: .glob(dir + "/by-id/*-event-kbd"), bindings: [KeyBinding(code: 57)],
      grab: true, inputDirectory: dir)
    let first = group.rescan()
    #expect(first.opened.count == 2)
    #expect(first.failures.isEmpty)
    #expect(first.warnings.contains { $0.contains("grab does not apply") })  // a warning only
    #expect(group.rescan().opened.isEmpty)
    #expect(group.sources.keys.sorted() == [dir + "/event3", dir + "/event4"])
    #expect(group.deadline == nil)
  }
}
