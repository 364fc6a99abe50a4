import AlarmCore
import CShim
import Glibc

/// One decoded `struct gpio_v2_line_event`.
public struct GpioLineEvent: Sendable, Hashable {
  public enum Edge: Sendable, Hashable {
    /// The logical value went active (pressed, with active-low wiring too).
    case rising
    case falling
  }

  /// CLOCK_MONOTONIC nanoseconds (the kernel default event clock).
  public var timestampNanoseconds: UInt64
  public var edge: Edge
  public var offset: UInt32
  /// Sequence number over all lines of the request, from 1.
  public var seqno: UInt32
  /// Sequence number for this line, from 1.
  public var lineSeqno: UInt32

  public init(
    timestampNanoseconds: UInt64, edge: Edge, offset: UInt32, seqno: UInt32, lineSeqno: UInt32
  ) {
    self.timestampNanoseconds = timestampNanoseconds
    self.edge = edge
    self.offset = offset
    self.seqno = seqno
    self.lineSeqno = lineSeqno
  }

  /// The press edge for the press logic: rising = pressed.
  public var pressEdge: PressEdge { edge == .rising ? .down : .up }
}

/// What a GPIO line fd yields.
public enum GpioReading: Sendable, Hashable {
  case event(GpioLineEvent)
  /// `count` events were lost before the next one (the kernel buffer overflowed).
  case dropped(count: UInt32)
  /// End of file or the device went away; close the fd.
  case closed
}

/// Decodes `struct gpio_v2_line_event` records from a byte stream, keeping
/// partial records across calls and watching `seqno` for gaps.
public struct GpioEventDecoder: Sendable {
  private var pending: [UInt8] = []
  private var expectedSeqno: UInt32?

  /// - Parameter firstSeqno: the seqno the first event should have (1 for a
  ///   fresh line request); nil = take the first event as the baseline.
  public init(firstSeqno: UInt32? = 1) { expectedSeqno = firstSeqno }

  public mutating func feed(_ bytes: some Collection<UInt8>) -> [GpioReading] {
    pending.append(contentsOf: bytes)
    let size = Int(CSHIM_GPIO_V2_LINE_EVENT_SIZE)
    var out: [GpioReading] = []
    var start = 0
    while pending.count - start >= size {
      let record = Array(pending[start..<start + size])
      start += size
      let seqno = record.load(UInt32.self, at: Int(CSHIM_GPIO_V2_LINE_EVENT_SEQNO))
      // A seqno below the expected one (a reused fd, wrap-around) only
      // resets the baseline; only a jump forward means lost events.
      if let expected = expectedSeqno, seqno > expected {
        out.append(.dropped(count: seqno - expected))
      }
      expectedSeqno = seqno &+ 1
      let edge: GpioLineEvent.Edge
      switch record.load(UInt32.self, at: Int(CSHIM_GPIO_V2_LINE_EVENT_ID)) {
      case UInt32(CSHIM_GPIO_V2_LINE_EVENT_RISING_EDGE): edge = .rising
      case UInt32(CSHIM_GPIO_V2_LINE_EVENT_FALLING_EDGE): edge = .falling
      default: continue  // a future event kind: skip the record, keep framing
      }
      out.append(
        .event(
          GpioLineEvent(
            timestampNanoseconds: record.load(
              UInt64.self, at: Int(CSHIM_GPIO_V2_LINE_EVENT_TIMESTAMP_NS)),
            edge: edge,
            offset: record.load(UInt32.self, at: Int(CSHIM_GPIO_V2_LINE_EVENT_OFFSET)),
            seqno: seqno,
            lineSeqno: record.load(UInt32.self, at: Int(CSHIM_GPIO_V2_LINE_EVENT_LINE_SEQNO)))))
    }
    pending.removeFirst(start)
    return out
  }
}

/// Reads GPIO line events from any fd (a line request, or a pipe in tests).
/// Call `read()` when the event loop reports the fd readable.
public struct GpioEventReader: Sendable {
  public let fd: Int32
  private var decoder: GpioEventDecoder

  /// Sets `fd` non-blocking so `read()` can drain it; does not own it.
  public init(fd: Int32, firstSeqno: UInt32? = 1) {
    self.fd = fd
    decoder = GpioEventDecoder(firstSeqno: firstSeqno)
    InputSys.setNonBlocking(fd)
  }

  /// Everything readable now, decoded; ends with `.closed` on EOF or ENODEV.
  public mutating func read() throws(InputError) -> [GpioReading] {
    var out: [GpioReading] = []
    let closed = try InputSys.drain(
      fd, bufferSize: Int(CSHIM_GPIO_V2_LINE_EVENT_SIZE) * 16, device: "GPIO line fd \(fd)"
    ) {
      out += decoder.feed($0)
    }
    if closed { out.append(.closed) }
    return out
  }
}
