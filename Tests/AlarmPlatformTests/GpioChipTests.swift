import AlarmCore
import AudioTestSupport
import Glibc
import Testing

@testable import AlarmPlatform

@Suite struct GpioChipTests {
  @Test func missingChipPathIsChipNotFound() {
    #expect(
      throws: InputError.chipNotFound("/nonexistent/gpiochip0", searched: "/nonexistent/gpiochip0")
    ) {
      _ = try GpioChip.open("/nonexistent/gpiochip0")
    }
  }

  @Test func missingNameOrLabelSearchesTheDevDirectory() throws {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    // Nodes that are not chips (a regular file, a FIFO) are skipped by the label search.
    #expect(creat(dir + "/gpiochip0", 0o600) >= 0)
    InputFixture.mkfifo(dir + "/gpiochip1")
    #expect(GpioChip.chipPaths(in: dir) == [dir + "/gpiochip0", dir + "/gpiochip1"])
    let error = expectThrows(InputError.self) {
      _ = try GpioChip.open("pinctrl-rp1", devDirectory: dir)
    }
    #expect(error == .chipNotFound("pinctrl-rp1", searched: dir + "/gpiochip*"))
    #expect(error?.description.contains("gpiodetect") == true)
    #expect(throws: InputError.chipNotFound("gpiochip7", searched: dir + "/gpiochip*")) {
      _ = try GpioChip.open("gpiochip7", devDirectory: dir)
    }
    #expect(throws: InputError.notAGpioChip(dir + "/gpiochip0")) {
      _ = try GpioChip.open("gpiochip0", devDirectory: dir)
    }
  }

  @Test func chipPathsSortNumerically() {
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    for n in [10, 2, 0] { _ = creat(dir + "/gpiochip\(n)", 0o600) }
    _ = creat(dir + "/null", 0o600)
    #expect(
      GpioChip.chipPaths(in: dir).map { String($0.dropFirst(dir.count + 1)) } == [
        "gpiochip0", "gpiochip2", "gpiochip10",
      ])
    #expect(GpioChip.chipPaths(in: "/nonexistent").isEmpty)
  }

  @Test func lineLogText() {
    #expect(GPIOLine.offset(17).logText == "17")
    #expect(GPIOLine.name("GPIO17").logText == "GPIO17")
  }

  @Test func errorsNameTheDeviceAndTheFix() {
    #expect(
      InputSys.openError(EACCES, path: "/dev/gpiochip0", group: "gpio").description
        == "permission denied opening /dev/gpiochip0: add the service user to group gpio"
        + " (e.g. `usermod -aG gpio alarmclock`) and restart the service")
    #expect(
      InputSys.openError(EACCES, path: "/dev/input/event3", group: "input").description
        .contains("add the service user to group input"))
    let busy = InputError.lineBusy(
      chip: "/dev/gpiochip0", line: "GPIO17 (offset 17)", consumer: "gpio-keys")
    #expect(
      busy.description.hasPrefix(
        "GPIO line GPIO17 (offset 17) on /dev/gpiochip0 is busy (used by 'gpio-keys')"))
    let line = InputError.lineNotFound(chip: "/dev/gpiochip0", line: "GPIO99", lines: 54)
    #expect(line.description.contains("GPIO99") && line.description.contains("gpioinfo"))
    #expect(
      InputSys.openError(ENOENT, path: "/dev/input/event9", group: "input")
        == .deviceNotFound("/dev/input/event9"))
  }

  @Test func realChipsIfThisMachineHasAny() throws {
    // CI has none; on a Pi this exercises the ioctls for real.
    for path in GpioChip.chipPaths() {
      guard let chip = try? GpioChip(path: path) else { continue }
      #expect(chip.info.path == path)
      if chip.info.lines > 0 { _ = try chip.lineInfo(offset: 0) }
    }
  }
}
