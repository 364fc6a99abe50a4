import AlarmPlatform
import Glibc
import Testing

@Suite struct InputDeviceSelectorTests {
  @Test func parsing() {
    #expect(InputDeviceSelector("auto") == .auto)
    #expect(
      InputDeviceSelector("/dev/input/by-id/*-event-kbd") == .glob("/dev/input/by-id/*-event-kbd"))
    #expect(InputDeviceSelector("/dev/input/event3") == .path("/dev/input/event3"))
  }

  @Test func globSelectsMatchingFifosInATempDirectory() {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    _ = mkdir(dir + "/by-id", 0o755)
    for name in ["usb-Logitech-event-kbd", "usb-Remote-event-kbd", "usb-Mouse-event-mouse"] {
      InputFixture.mkfifo(dir + "/by-id/" + name)
    }
    let selector = InputDeviceSelector(dir + "/by-id/*-event-kbd")
    #expect(
      selector.matches(inputDirectory: dir) == [
        dir + "/by-id/usb-Logitech-event-kbd", dir + "/by-id/usb-Remote-event-kbd",
      ])
    #expect(selector.watchDirectories(inputDirectory: dir) == [dir, dir + "/by-id"])
    #expect(InputDeviceSelector(dir + "/by-id/*-nothing").matches(inputDirectory: dir).isEmpty)
  }

  @Test func pathAndAutoSelection() {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    InputFixture.mkfifo(dir + "/event0")
    InputFixture.mkfifo(dir + "/event1")
    InputFixture.mkfifo(dir + "/mice")
    #expect(InputDeviceSelector.path(dir + "/event1").matches() == [dir + "/event1"])
    #expect(InputDeviceSelector.path(dir + "/event7").matches().isEmpty)
    // Auto keeps event* nodes that have keys; a FIFO answers no evdev ioctl.
    #expect(InputDeviceSelector.auto.matches(inputDirectory: dir).isEmpty)
    #expect(
      InputDeviceSelector.auto.matches(inputDirectory: dir, hasKeys: { $0.hasSuffix("1") })
        == [dir + "/event1"])
    #expect(InputDeviceSelector.auto.watchDirectories(inputDirectory: dir) == [dir])
  }
}

@Suite struct EvdevDeviceTests {
  @Test func missingDeviceIsDeviceNotFound() {
    #expect(throws: InputError.deviceNotFound("/nonexistent/input/event0")) {
      _ = try EvdevDevice(path: "/nonexistent/input/event0", grab: true)
    }
  }

  @Test func nonEvdevNodeOpensWithWarningsAndAFailedGrabIsNotAnError() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    InputFixture.mkfifo(dir + "/event0")
    let device = try EvdevDevice(path: dir + "/event0", grab: true)
    #expect(device.name == "event0")
    #expect(device.keys == nil)
    #expect(device.supports(128))
    #expect(!device.grabbed)
    #expect(device.isFifo)
    // A FIFO event stream answers no ioctl: nothing is tried, the grab is noted.
    #expect(device.warnings == ["\(dir)/event0 is a FIFO event stream: grab does not apply"])
  }

  @Test func realKeyDevicesIfThisMachineHasAny() {
    // CI has none; on a Pi or desktop this runs the ioctls for real (no grab).
    for path in InputDeviceSelector.auto.matches() {
      guard let device = try? EvdevDevice(path: path, grab: false) else { continue }
      #expect(device.keys?.isEmpty == false)
      #expect(device.warnings.isEmpty)
    }
  }
}

@Suite(.serialized) struct InputHotplugWatchTests {
  @Test func fifoCreatedAfterStartIsPickedUp() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    let watch = try InputHotplugWatch(directories: [dir])
    #expect(watch.read().isEmpty)
    InputFixture.mkfifo(dir + "/event5")
    var pfd = pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)
    #expect(poll(&pfd, 1, 2000) == 1)
    let changes = watch.read()
    #expect(changes.contains(.appeared(dir + "/event5")))
    // The new node is readable through the same reader as a device.
    let device = try EvdevDevice(path: dir + "/event5", grab: false)
    let w = open(dir + "/event5", O_WRONLY)
    defer { close(w) }
    var reader = EvdevEventReader(fd: device.fd)
    InputFixture.write(w, InputFixture.key(128, 1, ms: 10))
    #expect(try reader.read().count == 1)
    unlink(dir + "/event5")
    #expect(poll(&pfd, 1, 2000) == 1)
    #expect(watch.read().contains(.disappeared(dir + "/event5")))
  }

  @Test func missingByIdDirectoryIsWatchedThroughItsParent() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    let byId = dir + "/by-id"
    let watch = try InputHotplugWatch(directories: [dir, byId])
    #expect(watch.watchedDirectories == [dir])
    // udev creates by-id with the first device's link already inside.
    _ = mkdir(dir + "/tmp-by-id", 0o755)
    _ = symlink("../event0", dir + "/tmp-by-id/usb-Keyboard-event-kbd")
    _ = rename(dir + "/tmp-by-id", byId)
    var pfd = pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)
    #expect(poll(&pfd, 1, 2000) == 1)
    #expect(watch.read().contains(.appeared(byId + "/usb-Keyboard-event-kbd")))
    #expect(watch.watchedDirectories == [dir, byId])
    _ = symlink("../event1", byId + "/usb-Remote-event-kbd")
    #expect(poll(&pfd, 1, 2000) == 1)
    #expect(watch.read() == [.appeared(byId + "/usb-Remote-event-kbd")])
  }
}
