import CShim
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

/// The input code's syscalls, through `retryingEINTR` and `FileDescriptor`, with errors
/// turned into `InputError`s that name the device and the fix.
enum InputSys {
  /// Reads `fd` until it would block, handing each chunk read to `feed`. Returns true at
  /// end of file or when the device is gone (ENODEV). `device` names it in errors.
  static func drain(
    _ fd: Int32, bufferSize: Int, device: String, _ feed: (ArraySlice<UInt8>) -> Void
  ) throws(InputError) -> Bool {
    var buf = [UInt8](repeating: 0, count: bufferSize)
    while true {
      let n: Int
      do throws(SystemError) {
        n = try buf.withUnsafeMutableBytes { raw in
          Result { () throws(SystemError) in
            try retryingEINTR("read(\(device))") { Glibc.read(fd, raw.baseAddress, raw.count) }
          }
        }.get()
      } catch {
        if error.errno == ENODEV { return true }
        if error.isWouldBlock { return false }
        throw .system(call: "read", device: device, errno: error.errno)
      }
      if n == 0 { return true }
      feed(buf[0..<n])
    }
  }

  /// Opens a device read-only, non-blocking and close-on-exec.
  static func openDevice(_ path: String, group: String) throws(InputError) -> FileDescriptor {
    do throws(SystemError) {
      return try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
    } catch {
      throw openError(error.errno, path: path, group: group)
    }
  }

  /// Whether `path` names a FIFO (following symlinks).
  static func isFifo(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO
  }

  /// Opens a FIFO event stream read-write (so it never reads end of file when
  /// its writers close), non-blocking and close-on-exec.
  static func openFifo(_ path: String) throws(InputError) -> FileDescriptor {
    do throws(SystemError) {
      return try FileDescriptor.open(path, O_RDWR | O_NONBLOCK)
    } catch {
      if error.errno == EACCES || error.errno == EPERM {
        // No device group owns a FIFO: its own mode decides (the service reads and writes it).
        throw .system(call: "open (read-write)", device: "FIFO \(path)", errno: error.errno)
      }
      throw openError(error.errno, path: path, group: "input")
    }
  }

  /// An ioctl filling (or reading) `bytes`.
  @discardableResult
  static func ioctl(_ fd: FileDescriptor, _ request: UInt, bytes: inout [UInt8])
    throws(SystemError) -> Int32
  {
    let raw = fd.rawValue
    return try bytes.withUnsafeMutableBytes { buf in
      Result { () throws(SystemError) in
        try retryingEINTR("ioctl(\(fd))") { cshim_ioctl_ptr(raw, request, buf.baseAddress) }
      }
    }.get()
  }

  /// An ioctl taking a pointer.
  @discardableResult
  static func ioctl(_ fd: FileDescriptor, _ request: UInt, _ arg: UnsafeMutableRawPointer?)
    throws(SystemError) -> Int32
  {
    let raw = fd.rawValue
    return try retryingEINTR("ioctl(\(fd))") { cshim_ioctl_ptr(raw, request, arg) }
  }

  static func openError(_ err: Int32, path: String, group: String) -> InputError {
    switch err {
    case EACCES, EPERM: return .permissionDenied(device: path, group: group)
    case ENOENT, ENODEV, ENXIO: return .deviceNotFound(path)
    default: return .system(call: "open", device: path, errno: err)
    }
  }

  /// Sets O_NONBLOCK on a descriptor a reader was handed (it does not own it).
  static func setNonBlocking(_ fd: Int32) {
    let flags = (try? retryingEINTR("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }) ?? -1
    if flags >= 0 && flags & O_NONBLOCK == 0 {
      _ = try? retryingEINTR("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }
  }
}
