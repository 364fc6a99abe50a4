import AlarmCore
import CShim

/// A GPIO line requested as an output (the buzzer): GPIO_V2_GET_LINE_IOCTL with
/// GPIO_V2_LINE_FLAG_OUTPUT (initially low), then GPIO_V2_LINE_SET_VALUES_IOCTL with a
/// `struct gpio_v2_line_values` per change. Closing releases the line.
///
/// A FIFO may stand in for the chip, as for buttons (`GpioLineRequest.openFifo`): each
/// change is then written to it as the same `struct gpio_v2_line_values` the ioctl takes,
/// for a test or a bridge to a GPIO elsewhere to read.
public final class GpioOutputLine: Sendable {
  /// The line request's descriptor (or the FIFO's), owned by this object.
  public let descriptor: FileDescriptor
  /// The chip's path (or the FIFO's).
  public let chip: String
  public let offset: UInt32
  /// Whether `chip` is a FIFO rather than a GPIO chip.
  public let isFifo: Bool

  init(descriptor: FileDescriptor, chip: String, offset: UInt32, isFifo: Bool) {
    self.descriptor = descriptor
    self.chip = chip
    self.offset = offset
    self.isFifo = isFifo
  }

  /// Requests `line` of `chip` (a path, a name like `gpiochip0` or a label like
  /// `pinctrl-rp1`, resolved as for buttons; or the path of a FIFO, with the line an
  /// offset) as an output driven low.
  public static func open(
    chip spec: String, line: GPIOLine, consumer: String = "alarmclock-buzzer",
    devDirectory: String = "/dev"
  ) throws(InputError) -> GpioOutputLine {
    if spec.hasPrefix("/"), InputSys.isFifo(spec) {
      guard case .offset(let offset) = line else {
        throw .fifoLineName(fifo: spec, line: line.logText)
      }
      return GpioOutputLine(
        descriptor: try InputSys.openFifo(spec), chip: spec, offset: offset, isFifo: true)
    }
    let chip = try GpioChip.open(spec, devDirectory: devDirectory)
    let offset = try chip.resolve(line)
    let fd = try chip.request(
      line, offset: offset, bytes: requestBytes(offset: offset, consumer: consumer))
    return GpioOutputLine(descriptor: fd, chip: chip.info.path, offset: offset, isFifo: false)
  }

  /// The bytes of a `struct gpio_v2_line_request` for one output line at `offset`.
  public static func requestBytes(offset: UInt32, consumer: String) -> [UInt8] {
    .gpioLineRequest(
      offset: offset, consumer: consumer, flags: UInt64(CSHIM_GPIO_V2_LINE_FLAG_OUTPUT))
  }

  /// The bytes of a `struct gpio_v2_line_values` setting our only line (bit 0) high or low.
  public static func valuesBytes(_ high: Bool) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: Int(CSHIM_GPIO_V2_LINE_VALUES_SIZE))
    b.put(UInt64(high ? 1 : 0), at: CSHIM_GPIO_V2_LINE_VALUES_BITS)
    b.put(UInt64(1), at: CSHIM_GPIO_V2_LINE_VALUES_MASK)
    return b
  }

  /// Drives the line high or low. On a FIFO nobody reads, a full pipe drops the change.
  public func set(_ high: Bool) throws(SystemError) {
    var values = GpioOutputLine.valuesBytes(high)
    if isFifo {
      // 16 bytes reach a pipe whole or not at all (PIPE_BUF): full means dropped.
      do {
        try descriptor.writeAll(values)
      } catch  where error.isWouldBlock {}
      return
    }
    try InputSys.ioctl(descriptor, cshim_gpio_v2_line_set_values_ioctl(), bytes: &values)
  }

  /// Where the line is, for logs and `status`: `/dev/gpiochip0 line 18`.
  public var logText: String { "\(chip) line \(offset)" + (isFifo ? " (FIFO)" : "") }
}
