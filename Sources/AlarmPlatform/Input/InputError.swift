import Glibc

/// Why an input device (GPIO chip/line or evdev device) is unavailable. Each
/// `description` is one log line naming the device and the fix.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No /dev/gpiochip* matches the configured path, name or label.
  case chipNotFound(String, searched: String)
  /// The node exists but does not answer GPIO_GET_CHIPINFO_IOCTL.
  case notAGpioChip(String)
  /// The chip has no line with that name, or the offset is past its last line.
  case lineNotFound(chip: String, line: String, lines: UInt32)
  /// EACCES/EPERM opening a device node; `group` is the group that owns such nodes.
  case permissionDenied(device: String, group: String)
  /// EBUSY requesting a GPIO line another consumer holds.
  case lineBusy(chip: String, line: String, consumer: String)
  /// An evdev device path that does not exist.
  case deviceNotFound(String)
  /// An evdev device without keys (e.g. a mouse or a sensor).
  case notAKeyDevice(String)
  /// A FIFO standing in for a GPIO chip was given a line name: it has none.
  case fifoLineName(fifo: String, line: String)
  /// Any other failing call, with errno.
  case system(call: String, device: String, errno: Int32)

  public var description: String {
    switch self {
    case .chipNotFound(let chip, let searched):
      let how = chip == searched ? "" : " (searched \(searched) by name and label)"
      return "GPIO chip '\(chip)' not found\(how);"
        + " list chips with `gpiodetect` or `ls /dev/gpiochip*`"
    case .notAGpioChip(let path):
      return "\(path) is not a GPIO chip: name a /dev/gpiochipN node, a chip name"
        + " (gpiochip0) or a chip label (pinctrl-rp1)"
    case .lineNotFound(let chip, let line, let lines):
      return "GPIO line '\(line)' not found on \(chip) (\(lines) lines);"
        + " list line names with `gpioinfo`"
    case .permissionDenied(let device, let group):
      return "permission denied opening \(device): add the service user to group \(group)"
        + " (e.g. `usermod -aG \(group) alarmclock`) and restart the service"
    case .lineBusy(let chip, let line, let consumer):
      let by = consumer.isEmpty ? "another consumer" : "'\(consumer)'"
      return "GPIO line \(line) on \(chip) is busy (used by \(by)):"
        + " stop that program or remove the overlay that claims the pin"
    case .deviceNotFound(let path):
      return "input device \(path) not found: check the path (`ls /dev/input/by-id`);"
        + " it is picked up when it appears"
    case .notAKeyDevice(let path):
      return "input device \(path) reports no keys: pick a keyboard, remote or gpio-key"
        + " device (`evtest` lists them)"
    case .fifoLineName(let fifo, let line):
      return "\(fifo) is a FIFO event stream, which has no line names: give the line"
        + " as an offset (line = 17), not '\(line)'"
    case .system(let call, let device, let errno):
      return "\(call) on \(device) failed: \(String(cString: strerror(errno)))"
    }
  }
}

/// A minimal syscall helper (EINTR retry, errno capture) private to input
/// until the shared one in System/ is merged.
enum InputSys {
  /// `retryingEINTR` for the input code's (result, errno) style: the result, or -1 and
  /// the errno.
  static func retry(_ body: () -> Int32) -> (Int32, Int32) {
    do throws(SystemError) {
      return (try retryingEINTR("input", body), 0)
    } catch {
      return (-1, error.errno)
    }
  }

  static func retryRead(_ fd: Int32, _ buf: UnsafeMutableRawBufferPointer) -> (Int, Int32) {
    do throws(SystemError) {
      return (try retryingEINTR("read") { Glibc.read(fd, buf.baseAddress, buf.count) }, 0)
    } catch {
      return (-1, error.errno)
    }
  }

  /// Reads `fd` until it would block, handing each chunk read to `feed`. Returns true at
  /// end of file or when the device is gone (ENODEV). `device` names it in errors.
  static func drain(
    _ fd: Int32, bufferSize: Int, device: String, _ feed: (ArraySlice<UInt8>) -> Void
  ) throws(InputError) -> Bool {
    var buf = [UInt8](repeating: 0, count: bufferSize)
    while true {
      let (n, err) = buf.withUnsafeMutableBytes { retryRead(fd, $0) }
      if n > 0 {
        feed(buf[0..<n])
        continue
      }
      if n == 0 || err == ENODEV { return true }
      if err == EAGAIN || err == EWOULDBLOCK { return false }
      throw .system(call: "read", device: device, errno: err)
    }
  }

  /// Opens a device read-only, non-blocking and close-on-exec.
  static func openDevice(_ path: String, group: String) throws(InputError) -> Int32 {
    let (fd, err) = retry { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard fd < 0 else { return fd }
    throw openError(err, path: path, group: group)
  }

  /// Whether `path` names a FIFO (following symlinks).
  static func isFifo(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO
  }

  /// Opens a FIFO event stream read-write (so it never reads end of file when
  /// its writers close), non-blocking and close-on-exec.
  static func openFifo(_ path: String) throws(InputError) -> Int32 {
    let (fd, err) = retry { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
    guard fd < 0 else { return fd }
    if err == EACCES || err == EPERM {
      // No device group owns a FIFO: its own mode decides (the service reads and writes it).
      throw .system(call: "open (read-write)", device: "FIFO \(path)", errno: err)
    }
    throw openError(err, path: path, group: "input")
  }

  static func openError(_ err: Int32, path: String, group: String) -> InputError {
    switch err {
    case EACCES, EPERM: return .permissionDenied(device: path, group: group)
    case ENOENT, ENODEV, ENXIO: return .deviceNotFound(path)
    default: return .system(call: "open", device: path, errno: err)
    }
  }

  static func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
  }
}
