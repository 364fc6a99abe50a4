import AlarmCore

/// What an input source tells the service.
public enum InputSignal: Sendable, Hashable {
  case press(InputPress)
  /// Events were dropped (seqno gap, SYN_DROPPED): worth a warning in the log.
  case eventsLost(count: UInt32?)
  /// The device is gone (unplugged, EOF): close it and wait for hot-plug.
  case closed
}

/// A GPIO button line with its press logic, for the event loop: call
/// `readable()` when `fd` is readable, and arm a CLOCK_MONOTONIC timer for
/// `deadline`, calling `timerFired(now:)` when it expires.
public struct GpioButtonSource: Sendable {
  public let line: GpioLineRequest
  private var reader: GpioEventReader
  private var tracker: PressTracker

  /// `binding.code` is ignored: the line's offset is used.
  public init(line: GpioLineRequest, binding: KeyBinding) {
    self.line = line
    reader = GpioEventReader(fd: line.fd)
    var b = binding
    b.code = line.offset
    tracker = PressTracker(bindings: [b])
  }

  /// Opens `chip` (path, name or label), requests `line` and closes the chip
  /// again (the line stays requested while the source lives). On failure,
  /// log the error and retry when `InputHotplugWatch(directories: [devDirectory])`
  /// reports a `gpiochip*` node: a chip driver can probe after the service starts.
  /// A `chip` path that is a FIFO is read as that line's event stream
  /// (`GpioLineRequest.openFifo`).
  public static func open(
    chip: String, line: GPIOLine, options: GpioLineRequestOptions,
    binding: KeyBinding, devDirectory: String = "/dev"
  ) throws(InputError) -> GpioButtonSource {
    if chip.hasPrefix("/"), InputSys.isFifo(chip) {
      return GpioButtonSource(
        line: try GpioLineRequest.openFifo(chip, line: line), binding: binding)
    }
    let chip = try GpioChip.open(chip, devDirectory: devDirectory)
    return GpioButtonSource(line: try chip.requestLine(line, options: options), binding: binding)
  }

  public var fd: Int32 { line.fd }
  public var deadline: UInt64? { tracker.deadline }

  public mutating func readable() throws(InputError) -> [InputSignal] {
    var out: [InputSignal] = []
    for reading in try reader.read() {
      switch reading {
      case .event(let e):
        if let p = tracker.edge(e.pressEdge, code: e.offset, at: e.timestampNanoseconds) {
          out.append(.press(p))
        }
      case .dropped(let count):
        tracker.eventsLost()
        out.append(.eventsLost(count: count))
      case .closed:
        out.append(.closed)
      }
    }
    return out
  }

  /// Drains pending events first, so a release that happened before the
  /// threshold but was not read yet still makes a short press.
  public mutating func timerFired(now: UInt64) throws(InputError) -> [InputSignal] {
    let pending = try readable()
    return pending + tracker.threshold(now: now).map(InputSignal.press)
  }
}

/// An evdev device with its key bindings, for the event loop; same protocol
/// as `GpioButtonSource`.
public struct EvdevKeySource: Sendable {
  public let device: EvdevDevice
  private var reader: EvdevEventReader
  private var tracker: PressTracker

  public init(device: EvdevDevice, bindings: [KeyBinding]) {
    self.device = device
    reader = EvdevEventReader(fd: device.fd)
    tracker = PressTracker(bindings: bindings)
  }

  public var fd: Int32 { device.fd }
  public var deadline: UInt64? { tracker.deadline }

  /// The bound codes this device cannot report (worth a warning: a typo'd key).
  public var unsupportedCodes: [UInt32] {
    tracker.codes.filter { $0 > UInt32(UInt16.max) || !device.supports(UInt16($0)) }
  }

  public mutating func readable() throws(InputError) -> [InputSignal] {
    var out: [InputSignal] = []
    for reading in try reader.read() {
      switch reading {
      case .key(let k):
        if let p = tracker.edge(k.edge, code: UInt32(k.code), at: k.timestampNanoseconds) {
          out.append(.press(p))
        }
      case .dropped:
        tracker.eventsLost()
        out.append(.eventsLost(count: nil))
      case .closed:
        out.append(.closed)
      }
    }
    return out
  }

  /// Drains pending events first (see `GpioButtonSource.timerFired`).
  public mutating func timerFired(now: UInt64) throws(InputError) -> [InputSignal] {
    let pending = try readable()
    return pending + tracker.threshold(now: now).map(InputSignal.press)
  }
}
