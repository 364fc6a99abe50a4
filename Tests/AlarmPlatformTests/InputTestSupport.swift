import CShim
import Glibc

/// Test plumbing for the input readers: kernel-layout event bytes built by
/// the C shim (through the header's field names) and pipes/FIFOs to carry them.
enum InputFixture {
  static func gpioEvent(
    ns: UInt64, rising: Bool, offset: UInt32 = 17, seqno: UInt32, lineSeqno: UInt32? = nil
  ) -> [UInt8] {
    var b = [UInt8](repeating: 0xAA, count: Int(CSHIM_GPIO_V2_LINE_EVENT_SIZE))
    b.withUnsafeMutableBytes { raw in
      cshim_gpio_reference_event(
        raw.baseAddress, ns,
        UInt32(
          rising ? CSHIM_GPIO_V2_LINE_EVENT_RISING_EDGE : CSHIM_GPIO_V2_LINE_EVENT_FALLING_EDGE),
        offset, seqno, lineSeqno ?? seqno)
    }
    return b
  }

  static func inputEvent(sec: Int64, usec: Int64, type: UInt16, code: UInt16, value: Int32)
    -> [UInt8]
  {
    var b = [UInt8](repeating: 0xAA, count: Int(CSHIM_INPUT_EVENT_SIZE))
    b.withUnsafeMutableBytes { raw in
      cshim_input_reference_event(raw.baseAddress, sec, usec, type, code, value)
    }
    return b
  }

  static func key(_ code: UInt16, _ value: Int32, ms: Int64) -> [UInt8] {
    inputEvent(
      sec: ms / 1000, usec: (ms % 1000) * 1000, type: UInt16(CSHIM_EV_KEY), code: code,
      value: value)
      + inputEvent(
        sec: ms / 1000, usec: (ms % 1000) * 1000, type: UInt16(CSHIM_EV_SYN),
        code: UInt16(CSHIM_SYN_REPORT), value: 0)
  }

  /// A pipe: (read end, write end).
  static func pipe() -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    precondition(Glibc.pipe(&fds) == 0)
    return (fds[0], fds[1])
  }

  static func write(_ fd: Int32, _ bytes: [UInt8]) {
    let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    precondition(n == bytes.count)
  }

  /// A fresh temporary directory; remove with `removeTree`.
  static func tempDirectory() -> String {
    var template = Array("/tmp/alarmclock-input-XXXXXX".utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: p!)
  }

  static func mkfifo(_ path: String) {
    precondition(Glibc.mkfifo(path, 0o600) == 0)
  }

  static func removeTree(_ dir: String) {
    _ = system("rm -rf '\(dir)'")
  }
}
