import AlarmCore
import CShim
import Glibc

/// A GPIO chip as GPIO_GET_CHIPINFO_IOCTL describes it.
public struct GpioChipInfo: Sendable, Hashable {
  /// The device node, e.g. `/dev/gpiochip0`.
  public var path: String
  /// The kernel's name, e.g. `gpiochip0`.
  public var name: String
  /// The driver's label, e.g. `pinctrl-rp1` (Pi 5) or `pinctrl-bcm2711` (Pi 4).
  public var label: String
  public var lines: UInt32
}

/// One line as GPIO_V2_GET_LINEINFO_IOCTL describes it.
public struct GpioLineInfo: Sendable, Hashable {
  public var offset: UInt32
  /// The line name from the device tree, e.g. `GPIO17`; empty if unnamed.
  public var name: String
  /// Who holds the line, empty if free.
  public var consumer: String
  public var flags: UInt64

  public var isUsed: Bool { flags & UInt64(CSHIM_GPIO_V2_LINE_FLAG_USED) != 0 }
}

extension GPIOLine {
  /// The line as written in logs: `17` or `GPIO17`.
  public var logText: String {
    switch self {
    case .offset(let n): return "\(n)"
    case .name(let s): return s
    }
  }
}

/// An open GPIO chip: resolution of chips and lines, and line requests.
public final class GpioChip: Sendable {
  public let info: GpioChipInfo
  /// The chip's descriptor (close-on-exec), owned by this object.
  public let descriptor: FileDescriptor

  /// Opens a chip node and reads its info.
  public init(path: String) throws(InputError) {
    let fd: FileDescriptor
    do {
      fd = try InputSys.openDevice(path, group: "gpio")
    } catch {
      if case .deviceNotFound = error { throw .chipNotFound(path, searched: path) }
      throw error
    }
    var raw = [UInt8](repeating: 0, count: Int(CSHIM_GPIOCHIP_INFO_SIZE))
    do throws(SystemError) {
      try InputSys.ioctl(fd, cshim_gpio_get_chipinfo_ioctl(), bytes: &raw)
    } catch {
      if error.errno == ENOTTY || error.errno == EINVAL { throw .notAGpioChip(path) }
      throw .system(call: "GPIO_GET_CHIPINFO_IOCTL", device: path, errno: error.errno)
    }
    descriptor = fd
    let name = Int(CSHIM_GPIO_MAX_NAME_SIZE)
    info = GpioChipInfo(
      path: path, name: raw.cString(at: Int(CSHIM_GPIOCHIP_INFO_NAME), count: name),
      label: raw.cString(at: Int(CSHIM_GPIOCHIP_INFO_LABEL), count: name),
      lines: raw.load(UInt32.self, at: Int(CSHIM_GPIOCHIP_INFO_LINES)))
  }

  /// Finds a chip by path (`/dev/gpiochip0`), name (`gpiochip0`) or label
  /// (`pinctrl-rp1`), looking at the `gpiochip*` nodes in `devDirectory`.
  /// A permission error on a candidate is reported as such, not as "not found".
  public static func open(_ spec: String, devDirectory: String = "/dev") throws(InputError)
    -> GpioChip
  {
    if spec.hasPrefix("/") { return try GpioChip(path: spec) }
    let direct = devDirectory + "/" + spec
    if spec.hasPrefix("gpiochip"), access(direct, F_OK) == 0 {
      return try GpioChip(path: direct)
    }
    var denied: InputError? = nil
    for path in chipPaths(in: devDirectory) {
      do {
        let chip = try GpioChip(path: path)
        if chip.info.label == spec || chip.info.name == spec { return chip }
      } catch {
        if case .permissionDenied = error { denied = error }
      }
    }
    if let denied { throw denied }
    throw .chipNotFound(spec, searched: devDirectory + "/gpiochip*")
  }

  /// The `gpiochip*` nodes in a directory, in numeric order.
  public static func chipPaths(in devDirectory: String = "/dev") -> [String] {
    guard let dir = opendir(devDirectory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name.hasPrefix("gpiochip") { names.append(name) }
    }
    return names.sorted { a, b in
      (Int(a.dropFirst(8)) ?? Int.max, a) < (Int(b.dropFirst(8)) ?? Int.max, b)
    }.map { devDirectory + "/" + $0 }
  }

  /// Info for the line at `offset`.
  public func lineInfo(offset: UInt32) throws(InputError) -> GpioLineInfo {
    var raw = [UInt8](repeating: 0, count: Int(CSHIM_GPIO_V2_LINE_INFO_SIZE))
    raw.put(offset, at: CSHIM_GPIO_V2_LINE_INFO_OFFSET)
    do throws(SystemError) {
      try InputSys.ioctl(descriptor, cshim_gpio_v2_get_lineinfo_ioctl(), bytes: &raw)
    } catch {
      if error.errno == EINVAL {
        throw .lineNotFound(chip: info.path, line: "\(offset)", lines: info.lines)
      }
      throw .system(call: "GPIO_V2_GET_LINEINFO_IOCTL", device: info.path, errno: error.errno)
    }
    let n = Int(CSHIM_GPIO_MAX_NAME_SIZE)
    return GpioLineInfo(
      offset: offset, name: raw.cString(at: Int(CSHIM_GPIO_V2_LINE_INFO_NAME), count: n),
      consumer: raw.cString(at: Int(CSHIM_GPIO_V2_LINE_INFO_CONSUMER), count: n),
      flags: raw.load(UInt64.self, at: Int(CSHIM_GPIO_V2_LINE_INFO_FLAGS)))
  }

  /// The offset of a line given by offset (checked against the chip) or name.
  public func resolve(_ line: GPIOLine) throws(InputError) -> UInt32 {
    switch line {
    case .offset(let n):
      guard n < info.lines else {
        throw .lineNotFound(chip: info.path, line: "\(n)", lines: info.lines)
      }
      return n
    case .name(let name):
      for offset in 0..<info.lines where try lineInfo(offset: offset).name == name {
        return offset
      }
      throw .lineNotFound(chip: info.path, line: name, lines: info.lines)
    }
  }

  /// Requests a line as a button input (GPIO_V2_GET_LINE_IOCTL); the
  /// returned line's fd delivers `struct gpio_v2_line_event` records.
  public func requestLine(_ line: GPIOLine, options: GpioLineRequestOptions)
    throws(InputError) -> GpioLineRequest
  {
    let offset = try resolve(line)
    let lineFd = try request(line, offset: offset, bytes: options.requestBytes(offset: offset))
    try? lineFd.setNonBlocking()
    return GpioLineRequest(descriptor: lineFd, chip: info.path, offset: offset)
  }

  /// Sends a `struct gpio_v2_line_request` for `offset` (GPIO_V2_GET_LINE_IOCTL) and
  /// returns the line's descriptor; a busy line names its holder.
  func request(_ line: GPIOLine, offset: UInt32, bytes: [UInt8]) throws(InputError)
    -> FileDescriptor
  {
    var req = bytes
    do throws(SystemError) {
      try InputSys.ioctl(descriptor, cshim_gpio_v2_get_line_ioctl(), bytes: &req)
    } catch {
      let label = line == .offset(offset) ? "\(offset)" : "\(line.logText) (offset \(offset))"
      switch error.errno {
      case EBUSY:
        let consumer = (try? lineInfo(offset: offset).consumer) ?? ""
        throw .lineBusy(chip: info.path, line: label, consumer: consumer)
      case EACCES, EPERM: throw .permissionDenied(device: info.path, group: "gpio")
      default:
        throw .system(call: "GPIO_V2_GET_LINE_IOCTL", device: info.path, errno: error.errno)
      }
    }
    return FileDescriptor(owning: req.load(Int32.self, at: Int(CSHIM_GPIO_V2_LINE_REQUEST_FD)))
  }
}

/// A requested GPIO line: register `descriptor` with the event loop and feed a
/// `GpioEventReader` when it is readable. Closing releases the line.
public final class GpioLineRequest: Sendable {
  /// The line request's fd (or a FIFO's), owned by this object.
  public let descriptor: FileDescriptor
  public var fd: Int32 { descriptor.rawValue }
  public let chip: String
  public let offset: UInt32
  /// Whether `chip` is a FIFO event stream (`openFifo`) rather than a GPIO chip.
  public let isFifo: Bool

  init(descriptor: FileDescriptor, chip: String, offset: UInt32, isFifo: Bool = false) {
    self.descriptor = descriptor
    self.chip = chip
    self.offset = offset
    self.isFifo = isFifo
  }

  /// A FIFO standing in for a chip: it carries the `struct gpio_v2_line_event`
  /// records a line request would deliver (CLOCK_MONOTONIC timestamps, seqno
  /// from 1), written by a bridge to a GPIO elsewhere or by a test. Bias,
  /// active-low and debounce are the writer's business; the line must be an
  /// offset, since a FIFO has no line names.
  public static func openFifo(_ path: String, line: GPIOLine) throws(InputError) -> GpioLineRequest
  {
    guard case .offset(let offset) = line else {
      throw .fifoLineName(fifo: path, line: line.logText)
    }
    return GpioLineRequest(
      descriptor: try InputSys.openFifo(path), chip: path, offset: offset, isFifo: true)
  }
}
