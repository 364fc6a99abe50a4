import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Keys on the controlling terminal when `alarmclock run` is started on one: space or `s`
/// snoozes, Enter or `x` stops. The terminal is put in non-canonical mode without echo and
/// restored on exit; a one-line status is kept on stdout (when it is a terminal too).
final class TerminalKeys {
  enum Key { case snooze, stop }

  /// The terminal's device name, for `status`.
  let name: String
  private let loop: EventLoop
  private let input = FileDescriptor(owning: dup(0))
  private var saved = termios()
  private var restored = false
  private let showsStatus = isatty(1) == 1

  init(loop: EventLoop, onKey: @escaping (Key) -> Void) throws(SystemError) {
    self.loop = loop
    name = ttyname(0).map { String(cString: $0) } ?? "stdin"
    let fd = input.rawValue
    try retryingEINTR("tcgetattr(stdin)") { tcgetattr(fd, &saved) }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    // VMIN 1, VTIME 0: read returns as soon as one key is there.
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    try retryingEINTR("tcsetattr(stdin)") { tcsetattr(fd, TCSANOW, &raw) }
    try input.setNonBlocking()
    try loop.register(input, interest: .readable) { [unowned self] events in
      self.readable(events, onKey)
    }
  }

  deinit { restore() }

  private func readable(_ events: IOEvents, _ onKey: (Key) -> Void) {
    let bytes: [UInt8]
    do throws(SystemError) {
      bytes = try input.readSome(maxCount: 64)
    } catch {
      if error.isWouldBlock { return }
      bytes = []
    }
    if bytes.isEmpty {
      // End of input (the terminal hung up): stop listening, the service goes on.
      loop.unregister(input)
      return
    }
    for byte in bytes {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "s"), UInt8(ascii: "S"): onKey(.snooze)
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "x"), UInt8(ascii: "X"):
        onKey(.stop)
      default: break
      }
    }
  }

  /// Replaces the status line.
  func show(_ line: String) {
    guard showsStatus else { return }
    let text = "\r\u{1b}[2K" + line
    try? FileDescriptor.writeAll(Array(text.utf8), toRaw: STDOUT_FILENO)
  }

  /// Puts the terminal back as it was. Idempotent.
  func restore() {
    guard !restored else { return }
    restored = true
    loop.unregister(input)
    var original = saved
    _ = tcsetattr(input.rawValue, TCSANOW, &original)
    // The flag belongs to the open file the shell shares with us.
    try? input.setNonBlocking(false)
    if showsStatus { try? FileDescriptor.writeAll([UInt8(ascii: "\n")], toRaw: STDOUT_FILENO) }
    input.close()
  }
}
