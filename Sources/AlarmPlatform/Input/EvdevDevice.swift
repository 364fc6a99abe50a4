import CShim
import Glibc

/// An open evdev device (`/dev/input/eventN`): register `descriptor` with the
/// event loop and feed an `EvdevEventReader` when it is readable.
///
/// A FIFO at the path is an event stream instead: it carries raw `struct
/// input_event` records written by another program (a bridge from a device
/// elsewhere, or a test), with CLOCK_MONOTONIC timestamps. It answers no evdev
/// ioctl, so its keys are unknown (every binding applies) and it cannot be
/// grabbed; it is opened read-write so that writers may come and go without
/// an end of file.
public final class EvdevDevice: Sendable {
  public let path: String
  /// The open node (close-on-exec, non-blocking), owned by this object.
  public let descriptor: FileDescriptor
  public var fd: Int32 { descriptor.rawValue }
  /// Whether the node is a FIFO event stream rather than an evdev device.
  public let isFifo: Bool
  /// EVIOCGNAME, for log lines; the path's last component if unavailable.
  public let name: String
  /// The key codes the device reports (EVIOCGBIT(EV_KEY)); nil when the node
  /// does not answer evdev ioctls (a FIFO event stream).
  public let keys: Set<UInt16>?
  /// Whether EVIOCGRAB took the device for this service alone.
  public let grabbed: Bool
  /// Non-fatal problems to log (a failed grab, timestamps left on realtime).
  public let warnings: [String]

  /// Opens a device read-only and non-blocking, switches its timestamps to
  /// CLOCK_MONOTONIC (the press logic's clock), and grabs it if asked.
  /// Throws `.notAKeyDevice` for a device without keys.
  public init(path: String, grab: Bool) throws(InputError) {
    if InputSys.isFifo(path) {
      descriptor = try InputSys.openFifo(path)
      self.path = path
      isFifo = true
      name = String(path.split(separator: "/").last ?? "")
      keys = nil
      grabbed = false
      warnings = grab ? ["\(path) is a FIFO event stream: grab does not apply"] : []
      return
    }
    let fd = try InputSys.openDevice(path, group: "input")
    var warnings: [String] = []
    var clock = CLOCK_MONOTONIC
    do throws(SystemError) {
      try InputSys.ioctl(fd, cshim_eviocsclockid(), &clock)
    } catch {
      warnings.append(
        "\(path): cannot switch event timestamps to the monotonic clock"
          + " (\(SystemError.message(for: error.errno))); long presses act on release only")
    }
    let keys = EvdevDevice.keyBits(fd)
    if let keys, keys.isEmpty { throw .notAKeyDevice(path) }
    var grabbed = false
    if grab {
      let raw = fd.rawValue
      do throws(SystemError) {
        try retryingEINTR("EVIOCGRAB") { cshim_ioctl_int(raw, cshim_eviocgrab(), 1) }
        grabbed = true
      } catch {
        warnings.append(
          "\(path): EVIOCGRAB failed (\(SystemError.message(for: error.errno))); other"
            + " programs also see its keys")
      }
    }
    self.path = path
    descriptor = fd
    isFifo = false
    self.name = EvdevDevice.deviceName(fd) ?? String(path.split(separator: "/").last ?? "")
    self.keys = keys
    self.grabbed = grabbed
    self.warnings = warnings
  }

  /// Whether the device can report `code` (true when its keys are unknown).
  public func supports(_ code: UInt16) -> Bool { keys?.contains(code) ?? true }

  static func deviceName(_ fd: FileDescriptor) -> String? {
    var buf = [UInt8](repeating: 0, count: 256)
    let count = buf.count
    let r = try? InputSys.ioctl(fd, cshim_eviocgname(UInt32(count)), bytes: &buf)
    guard let r, r > 0 else { return nil }
    return buf.cString(at: 0, count: buf.count)
  }

  /// EVIOCGBIT(EV_KEY): nil if the ioctl is unsupported, empty if no keys.
  static func keyBits(_ fd: FileDescriptor) -> Set<UInt16>? {
    let count = Int(CSHIM_KEY_MAX) / 8 + 1
    var buf = [UInt8](repeating: 0, count: count)
    let request = cshim_eviocgbit(UInt32(CSHIM_EV_KEY), UInt32(count))
    do throws(SystemError) {
      try InputSys.ioctl(fd, request, bytes: &buf)
    } catch {
      return nil
    }
    var set = Set<UInt16>()
    for (i, byte) in buf.enumerated() where byte != 0 {
      for bit in 0..<8 where byte & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
    }
    return set
  }
}
