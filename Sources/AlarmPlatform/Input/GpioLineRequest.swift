import AlarmCore
import CShim

/// How a button line is requested: always an input with edge detection on
/// both edges, so presses and releases both arrive with kernel timestamps.
public struct GpioLineRequestOptions: Sendable, Hashable {
  /// The consumer name other tools (`gpioinfo`) show for the line.
  public var consumer: String
  /// `.pullUp`: wire the button between the pin and GND (with `activeLow`).
  public var bias: GPIOBias
  /// Pressed = low (the usual wiring with a pull-up): edges are then reported
  /// as logical edges, rising = pressed.
  public var activeLow: Bool
  /// Kernel debounce period (rounded down to microseconds); zero = none.
  public var debounce: Duration
  /// Kernel event buffer size in events; 0 = the kernel default (16 per line).
  public var eventBufferSize: UInt32

  public init(
    consumer: String = "alarmclock", bias: GPIOBias = .pullUp, activeLow: Bool = true,
    debounce: Duration = .milliseconds(10), eventBufferSize: UInt32 = 0
  ) {
    self.consumer = consumer
    self.bias = bias
    self.activeLow = activeLow
    self.debounce = debounce
    self.eventBufferSize = eventBufferSize
  }

  /// The `gpio_v2_line_config.flags` these options request.
  public var flags: UInt64 {
    var f =
      UInt64(CSHIM_GPIO_V2_LINE_FLAG_INPUT) | UInt64(CSHIM_GPIO_V2_LINE_FLAG_EDGE_RISING)
      | UInt64(CSHIM_GPIO_V2_LINE_FLAG_EDGE_FALLING)
    if activeLow { f |= UInt64(CSHIM_GPIO_V2_LINE_FLAG_ACTIVE_LOW) }
    switch bias {
    case .pullUp: f |= UInt64(CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_UP)
    case .pullDown: f |= UInt64(CSHIM_GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN)
    case .disabled: f |= UInt64(CSHIM_GPIO_V2_LINE_FLAG_BIAS_DISABLED)
    case .asIs: break
    }
    return f
  }

  /// The debounce period in microseconds, clamped to the attribute's 32 bits.
  public var debounceMicroseconds: UInt32 {
    let (s, atto) = debounce.components
    if s < 0 { return 0 }
    if s > Int64(UInt32.max / 1_000_000) { return UInt32.max }
    return UInt32(clamping: s * 1_000_000 + atto / 1_000_000_000_000)
  }

  /// The bytes of a `struct gpio_v2_line_request` for one line at `offset`,
  /// laid out by the shim's header-checked offsets.
  public func requestBytes(offset: UInt32) -> [UInt8] {
    var b = [UInt8].gpioLineRequest(offset: offset, consumer: consumer, flags: flags)
    let config = Int(CSHIM_GPIO_V2_LINE_REQUEST_CONFIG)
    if debounceMicroseconds != 0 {
      b.put(UInt32(1), at: config + Int(CSHIM_GPIO_V2_LINE_CONFIG_NUM_ATTRS))
      let attr = config + Int(CSHIM_GPIO_V2_LINE_CONFIG_ATTRS)
      b.put(
        UInt32(CSHIM_GPIO_V2_LINE_ATTR_ID_DEBOUNCE),
        at: attr + Int(CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_ATTR)
          + Int(CSHIM_GPIO_V2_LINE_ATTRIBUTE_ID))
      b.put(
        debounceMicroseconds,
        at: attr + Int(CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_ATTR)
          + Int(CSHIM_GPIO_V2_LINE_ATTRIBUTE_VALUE))
      // The mask selects requested lines by index: bit 0 = our only line.
      b.put(UInt64(1), at: attr + Int(CSHIM_GPIO_V2_LINE_CONFIG_ATTRIBUTE_MASK))
    }
    b.put(eventBufferSize, at: CSHIM_GPIO_V2_LINE_REQUEST_EVENT_BUFFER_SIZE)
    return b
  }
}

extension [UInt8] {
  /// A `struct gpio_v2_line_request` for one line at `offset` with `flags`, what every
  /// request (a button's input, the buzzer's output) has in common; the consumer name
  /// NUL-terminated and truncated to fit, as the kernel expects.
  static func gpioLineRequest(offset: UInt32, consumer: String, flags: UInt64) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: Int(CSHIM_GPIO_V2_LINE_REQUEST_SIZE))
    b.put(offset, at: CSHIM_GPIO_V2_LINE_REQUEST_OFFSETS)
    let name = Array(consumer.utf8.prefix(Int(CSHIM_GPIO_MAX_NAME_SIZE) - 1))
    for (i, byte) in name.enumerated() {
      b[Int(CSHIM_GPIO_V2_LINE_REQUEST_CONSUMER) + i] = byte
    }
    b.put(
      flags, at: Int(CSHIM_GPIO_V2_LINE_REQUEST_CONFIG) + Int(CSHIM_GPIO_V2_LINE_CONFIG_FLAGS))
    b.put(UInt32(1), at: CSHIM_GPIO_V2_LINE_REQUEST_NUM_LINES)
    return b
  }

  /// Stores `value` in native byte order (the ioctl structs are host-endian).
  mutating func put<T: FixedWidthInteger>(_ value: T, at offset: Int32) {
    put(value, at: Int(offset))
  }

  mutating func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    withUnsafeMutableBytes { raw in
      raw.storeBytes(of: value, toByteOffset: offset, as: T.self)
    }
  }

  /// Loads a native-endian integer; the caller has checked the bounds.
  func load<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    withUnsafeBytes { raw in raw.loadUnaligned(fromByteOffset: offset, as: T.self) }
  }

  /// A NUL-terminated C string field of at most `count` bytes.
  func cString(at offset: Int, count: Int) -> String {
    let field = self[offset..<Swift.min(self.count, offset + count)]
    let end = field.firstIndex(of: 0) ?? field.endIndex
    return String(decoding: field[offset..<end], as: UTF8.self)
  }
}
