import AlarmCore
import CShim
import Glibc

/// A key press or release from an evdev device (autorepeat is dropped).
public struct EvdevKeyEvent: Sendable, Hashable {
  public var code: UInt16
  public var edge: PressEdge
  /// The event's timestamp in nanoseconds, on the device's clock:
  /// CLOCK_MONOTONIC once `EvdevDevice` has set it (evdev defaults to realtime).
  public var timestampNanoseconds: UInt64

  public init(code: UInt16, edge: PressEdge, timestampNanoseconds: UInt64) {
    self.code = code
    self.edge = edge
    self.timestampNanoseconds = timestampNanoseconds
  }
}

/// What an evdev fd yields.
public enum EvdevReading: Sendable, Hashable {
  case key(EvdevKeyEvent)
  /// SYN_DROPPED: the kernel buffer overflowed and events were lost; the
  /// events up to the next SYN_REPORT are discarded, as evdev requires.
  case dropped
  /// End of file or the device was unplugged (ENODEV); close the fd.
  case closed
}

/// Decodes `struct input_event` records (size and offsets from the shim,
/// checked against linux/input.h), keeping partial records across calls.
public struct EvdevEventDecoder: Sendable {
  private var pending: [UInt8] = []
  private var discarding = false

  public init() {}

  public mutating func feed(_ bytes: some Collection<UInt8>) -> [EvdevReading] {
    pending.append(contentsOf: bytes)
    let size = Int(CSHIM_INPUT_EVENT_SIZE)
    var out: [EvdevReading] = []
    var start = 0
    while pending.count - start >= size {
      let r = Array(pending[start..<start + size])
      start += size
      let type = r.load(UInt16.self, at: Int(CSHIM_INPUT_EVENT_TYPE))
      let code = r.load(UInt16.self, at: Int(CSHIM_INPUT_EVENT_CODE))
      let value = r.load(Int32.self, at: Int(CSHIM_INPUT_EVENT_VALUE))
      if type == UInt16(CSHIM_EV_SYN) {
        if code == UInt16(CSHIM_SYN_DROPPED) {
          discarding = true
          out.append(.dropped)
        } else if code == UInt16(CSHIM_SYN_REPORT) {
          discarding = false
        }
        continue
      }
      guard type == UInt16(CSHIM_EV_KEY), !discarding else { continue }
      let edge: PressEdge
      switch value {
      case 1: edge = .down
      case 0: edge = .up
      default: continue  // 2 = autorepeat
      }
      let ts = EvdevEventDecoder.nanoseconds(
        sec: EvdevEventDecoder.timeField(r, at: Int(CSHIM_INPUT_EVENT_SEC)),
        usec: EvdevEventDecoder.timeField(r, at: Int(CSHIM_INPUT_EVENT_USEC)))
      out.append(.key(EvdevKeyEvent(code: code, edge: edge, timestampNanoseconds: ts)))
    }
    pending.removeFirst(start)
    return out
  }

  private static func timeField(_ r: [UInt8], at offset: Int) -> Int64 {
    // `long`-sized fields: 8 bytes on 64-bit, 4 on 32-bit (the shim checks which).
    let width = Int(CSHIM_INPUT_EVENT_TIME_FIELD_SIZE)
    return width == 8 ? r.load(Int64.self, at: offset) : Int64(r.load(Int32.self, at: offset))
  }

  /// sec/usec to ns, saturating: garbage timestamps must not trap.
  static func nanoseconds(sec: Int64, usec: Int64) -> UInt64 {
    guard sec >= 0 else { return 0 }
    let (ns, o1) = UInt64(sec).multipliedReportingOverflow(by: 1_000_000_000)
    let micros = UInt64(clamping: max(0, min(usec, 999_999)))
    let (sum, o2) = ns.addingReportingOverflow(micros * 1000)
    return o1 || o2 ? UInt64.max : sum
  }
}

/// Reads key events from any fd (an evdev device, or a pipe in tests).
/// Call `read()` when the event loop reports the fd readable.
public struct EvdevEventReader: Sendable {
  public let fd: Int32
  private var decoder = EvdevEventDecoder()

  /// Sets `fd` non-blocking so `read()` can drain it; does not own it.
  public init(fd: Int32) {
    self.fd = fd
    InputSys.setNonBlocking(fd)
  }

  /// Everything readable now, decoded; ends with `.closed` on EOF or unplug.
  public mutating func read() throws(InputError) -> [EvdevReading] {
    var out: [EvdevReading] = []
    let closed = try InputSys.drain(
      fd, bufferSize: Int(CSHIM_INPUT_EVENT_SIZE) * 64, device: "input fd \(fd)"
    ) {
      out += decoder.feed($0)
    }
    if closed { out.append(.closed) }
    return out
  }
}
