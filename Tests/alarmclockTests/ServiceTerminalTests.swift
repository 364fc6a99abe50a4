import AudioTestSupport
import Foundation
import Testing

/// `alarmclock run` on a terminal: keys snooze and stop, a status line is shown, and the
/// terminal is given back as it was. The terminal is a real pseudo-terminal (Python's
/// `pty`), so the service sees `isatty` and its termios calls act on a real tty.
@Suite(.serialized) struct ServiceTerminalTests {
  static let driver = """
    import os, pty, sys, termios, time
    argv = sys.argv[1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    out = open(os.environ["PTY_LOG"], "ab", buffering=0)
    keys = os.environ["PTY_KEYS"]
    import select, fcntl
    def pump(seconds):
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    return False
                if not data:
                    return False
                out.write(data)
        return True
    pump(0.1)
    while True:
        # Commands from the test, one per line, in a file it appends to.
        try:
            lines = open(keys).read().splitlines()
        except FileNotFoundError:
            lines = []
        for line in lines[getattr(pump, "done", 0):]:
            if line == "quit":
                os.kill(pid, 15)
                pump(2)
                # The terminal must be back in canonical mode with echo.
                attrs = termios.tcgetattr(fd)
                ok = (attrs[3] & termios.ICANON) and (attrs[3] & termios.ECHO)
                out.write(b"\\nTERMIOS-RESTORED\\n" if ok else b"\\nTERMIOS-RAW\\n")
                _, status = os.waitpid(pid, 0)
                out.write(b"EXIT %d\\n" % os.waitstatus_to_exitcode(status))
                sys.exit(0)
            os.write(fd, line.encode().replace(b"\\\\r", b"\\r"))
        pump.done = len(lines)
        if not pump(0.05):
            break
    """

  @Test func keysSnoozeAndStopAndTheTerminalIsRestored() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let config = ServiceControlTests.config(
      "[[alarm]]\nid = \"wake\"\nlabel = \"Wake\"\ntime = \"\(awayFromNow(hours: 6))\"\ndays = \"daily\"\n"
    )
    try config.write(toFile: dir.file("alarms.toml"), atomically: true, encoding: .utf8)
    let keys = dir.file("keys")
    let ptyLog = dir.file("pty.log")
    let socket = dir.file("state/control.sock")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    p.arguments = [
      "-c", Self.driver, CLI.binary, "run", "--config", dir.file("alarms.toml"), "--state-dir",
      dir.file("state"), "--socket", socket,
    ]
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = "UTC"
    env["PTY_LOG"] = ptyLog
    env["PTY_KEYS"] = keys
    p.environment = env
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
    func screen() -> String { (try? String(contentsOfFile: ptyLog, encoding: .utf8)) ?? "" }
    func send(_ line: String) throws {
      let h =
        FileHandle(forWritingAtPath: keys)
        ?? {
          FileManager.default.createFile(atPath: keys, contents: nil)
          return FileHandle(forWritingAtPath: keys)!
        }()
      h.seekToEndOfFile()
      h.write(Data((line + "\n").utf8))
      try h.close()
    }
    func state() throws -> String? {
      let r = try CLI.run(["status", "--json", "--socket", socket])
      guard let data = r.stdout.data(using: .utf8),
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return "unreadable: \(r.stderr)" }
      return (json["session"] as? [String: Any])?["state"] as? String
    }
    try waitFor("the status line", timeout: 15) { screen().contains("next: ") }
    #expect(screen().contains("Wake"))
    #expect(try CLI.run(["ring", "wake", "--socket", socket]).status == 0)
    try waitFor("ringing", timeout: 5) { try state() == "ringing" }
    try waitFor("the ringing status line", timeout: 5) { screen().contains("ringing: Wake") }
    try send(" ")
    try waitFor("the space key to snooze", timeout: 5) { try state() == "snoozed" }
    try send("x")
    try waitFor("x to stop", timeout: 5) { try state() == nil }
    #expect(try CLI.run(["ring", "wake", "--socket", socket]).status == 0)
    try waitFor("ringing", timeout: 5) { try state() == "ringing" }
    try send("\\r")
    try waitFor("Enter to stop", timeout: 5) { try state() == nil }
    try send("quit")
    try waitFor("the service to exit", timeout: 15) { screen().contains("EXIT ") }
    #expect(screen().contains("TERMIOS-RESTORED"), "\(screen())")
    #expect(screen().contains("EXIT 0"), "\(screen())")
  }
}
