import AlarmCore
import AudioTestSupport
import Foundation
import Testing

/// `alarmclock run` and its control socket, config reloads and files, without listening to
/// the sound (the ring tests do that). The device is the test sink when PulseAudio is there;
/// without it the ring sessions still run (the ringer keeps retrying the device).
@Suite(.serialized) struct ServiceControlTests {
  static func device() -> String {
    PulseTestServer.available ? ((try? ServiceSink.device(ServiceSink.quiet)) ?? "default") : "null"
  }

  static func config(_ alarms: String, extra: String = "") -> String {
    """
    # the service test config
    [settings]
    timezone = "UTC"

    [audio]
    device = "\(device())"
    \(extra)

    \(alarms)
    """
  }

  /// Times away from now: a fixed time rang at once when the suite ran just after it.
  static var twoAlarms: String {
    """
    [[alarm]]
    id = "wake"
    label = "Wake"
    time = "\(awayFromNow(hours: 6))"
    days = "daily"

    [[alarm]]
    id = "gym"
    time = "\(awayFromNow(hours: 12))"
    days = "daily"
    """
  }

  /// The ids of `status`'s next firings (five of them). Both alarms are daily so that
  /// each one is among them whatever the day and hour the test runs at.
  static func nextIDs(_ service: ServiceProcess) throws -> [String] {
    (try service.status()["next"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  /// Replaces the config the way editors do: a new file renamed over the old one.
  static func save(_ text: String, to path: String) throws {
    try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.moveItem(atPath: path + ".new", toPath: path)
  }

  @Test func clientsSayClearlyWhenTheServiceIsNotRunning() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    for command in [["status"], ["snooze"], ["stop"], ["skip", "wake"], ["reload"]] {
      let r = try CLI.run(command + ["--socket", dir.file("none.sock")])
      #expect(r.status == 1)
      #expect(
        r.stderr.contains("alarmclock is not running (no socket at: \(dir.file("none.sock")))"),
        "\(r.stderr)")
    }
  }

  /// The socket carries bytes: invalid UTF-8 reaches the JSON decoder as it came and gets
  /// `bad-json` (docs/protocol.md), not a guess made from U+FFFD; a
  /// pipeline of requests gets its replies in order.
  @Test func invalidUTF8IsBadJSONAndPipelinedRepliesKeepTheirOrder() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config(Self.twoAlarms))
    let client = try RawClient(socket: service.socket)
    let bad: [UInt8] = Array(#"{"cmd":"st"#.utf8) + [0xFF, 0xFE] + Array(#"tus"}"#.utf8)
    try client.send(bad + [0x0A] + Array("{\"cmd\":\"snooze\"}\r\n{\"cmd\":\"status\"}\n".utf8))
    let replies = try client.readLines(3)
    #expect(replies.count == 3, "\(replies)")
    #expect(replies.first?.contains(#""code":"bad-json""#) == true, "\(replies)")
    #expect(replies.first?.contains("UTF-8") == true, "\(replies)")
    #expect(replies.dropFirst().first?.contains(#""code":"not-ringing""#) == true, "\(replies)")
    let status = replies.last.flatMap { $0.data(using: .utf8) }
      .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    #expect(status?["ok"] as? Bool == true && status?["next"] != nil, "\(replies)")
  }

  @Test func commandsAnswerAndRefuseWithReasons() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config(Self.twoAlarms))
    var st = stat()
    #expect(stat(service.socket, &st) == 0 && st.st_mode & 0o777 == 0o660, "socket mode 0660")

    let snooze = try service.ctl(["snooze"])
    #expect(snooze.status == 1 && snooze.stderr.contains("no alarm is ringing"), "\(snooze.stderr)")
    let ring = try service.ctl(["ring", "wak"])
    #expect(ring.status == 1 && ring.stderr.contains("did you mean 'wake'"), "\(ring.stderr)")

    let first = try Self.nextIDs(service)
    #expect(first.count == 5 && first.contains("wake"))
    let skip = try service.ctl(["skip", "wake"])
    #expect(skip.status == 0 && skip.stdout.hasPrefix("skipped 'wake' at "), "\(skip.stdout)")
    let status = try service.status()
    let wakes = (status["next"] as? [[String: Any]] ?? []).filter { $0["id"] as? String == "wake" }
    let skippedAt = skip.stdout.dropFirst("skipped 'wake' at ".count).trimmingCharacters(
      in: .newlines)
    #expect(!wakes.contains { StatusText.instant($0["at"] as? String ?? "") == skippedAt })
    let asked = try CLI.run([
      "next", "--socket", service.socket, "--config", service.configPath, "--count", "3", "--json",
    ])
    #expect(asked.status == 0, "\(asked.stderr)")
    let askedAts =
      ((try? JSONSerialization.jsonObject(with: Data(asked.stdout.utf8))) as? [[String: Any]] ?? [])
      .compactMap { $0["at"] as? String }.map(StatusText.instant)
    #expect(
      askedAts.count == 3 && !askedAts.contains(skippedAt),
      "the service's next knows the skip: \(asked.stdout)")
    let nextWake = try CLI.run(["next", "--socket", service.socket, "--config", service.configPath])
    #expect(nextWake.status == 0 && !nextWake.stdout.isEmpty, "\(nextWake.stderr)")
    // The service's limit is said, not applied silently (ControlRequest.nextCountRange).
    let many = try CLI.run(["next", "--socket", service.socket, "--count", "101"])
    #expect(many.status == 2, "\(many.stdout)")
    #expect(many.stderr.contains("with --socket, --count is at most 100"), "\(many.stderr)")
    #expect(try service.ctl(["unskip", "wake"]).status == 0)
    #expect(
      try service.ctl(["unskip", "wake"]).stderr.contains("no occurrence of 'wake' is skipped"))

    #expect(try service.ctl(["ring", "gym"]).status == 0)
    #expect(try service.sessionState() == "ringing")
    let human = try service.ctl(["status"])
    #expect(human.stdout.contains("ringing: gym until "), "\(human.stdout)")
    #expect(try service.ctl(["snooze"]).status == 0)
    #expect(try service.sessionState() == "snoozed")
    #expect(try service.ctl(["stop"]).status == 0)
    #expect(try service.sessionState() == nil)
    #expect(service.terminate() == 0)
  }

  @Test func configEditsApplyAndBadOnesKeepTheLastGoodConfig() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config(Self.twoAlarms))
    #expect(try Self.nextIDs(service).contains("gym"))

    let nap = awayFromNow(hours: 9)
    let added =
      Self.twoAlarms + "\n\n[[alarm]]\nid = \"nap\"\ntime = \"\(nap)\"\ndays = \"daily\"\n"
    try Self.save(Self.config(added), to: service.configPath)
    try service.waitForLog("config applied (file changed)")
    #expect(try Self.nextIDs(service).contains("nap"))

    // A typo: rejected with file:line:col, the alarms in force stay.
    let typo = Self.config(added.replacingOccurrences(of: nap, with: nap.prefix(3) + "70"))
    try Self.save(typo, to: service.configPath)
    try service.waitForLog("config rejected (file changed)")
    let status = try service.status()
    let config = status["config"] as? [String: Any]
    #expect(config?["ok"] as? Bool == false)
    let errors = config?["errors"] as? [String] ?? []
    #expect(
      errors.first.map {
        $0.range(of: #"alarms\.toml:\d+:\d+: "#, options: .regularExpression) != nil
      } == true, "\(errors)")
    #expect(try Self.nextIDs(service).contains("nap"))
    let reload = try service.ctl(["reload"])
    #expect(reload.status == 1 && reload.stderr.contains("the last good config stays in force"))
    #expect(reload.stderr.contains("alarms.toml:"), "details listed: \(reload.stderr)")

    // Deleting the ringing alarm stops its ring.
    #expect(try service.ctl(["ring", "nap"]).status == 0)
    try Self.save(Self.config(Self.twoAlarms), to: service.configPath)
    try service.waitForLog("alarm 'nap' was removed: its ring session stops")
    #expect(try service.sessionState() == nil)
    #expect((try service.status()["config"] as? [String: Any])?["ok"] as? Bool == true)

    kill(service.pid, SIGHUP)
    try service.waitForLog("SIGHUP: reading")
    #expect(service.terminate() == 0)
  }

  @Test func theEditingCommandsArePickedUp() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config(Self.twoAlarms))
    let add = try CLI.run([
      "add", "07:30:15", "--label", "Tea", "--id", "tea", "--days", "daily", "--config",
      service.configPath,
    ])
    #expect(add.status == 0, "\(add.stderr)")
    try service.waitForLog("config applied", count: 1)
    #expect(try Self.nextIDs(service).contains("tea"))
    #expect(try CLI.run(["disable", "tea", "--config", service.configPath]).status == 0)
    try service.waitForLog("config applied", count: 2)
    #expect(try !Self.nextIDs(service).contains("tea"))
    #expect(try CLI.run(["remove", "gym", "--config", service.configPath]).status == 0)
    try service.waitForLog("config applied", count: 3)
    #expect(try !Self.nextIDs(service).contains("gym"))
    #expect(service.terminate() == 0)
  }

  @Test func aBrokenStateFileIsMovedAsideAndABrokenConfigFallsBackToTheLastGood() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config(Self.twoAlarms))
    #expect(try service.ctl(["skip", "gym"]).status == 0)
    #expect(service.terminate() == 0)
    let state = try String(contentsOfFile: service.stateDir + "/state.json", encoding: .utf8)
    #expect(state.contains("\"skip_next\": {\n    \"gym\""), "\(state)")

    try "{\"version\": 1, \"session\": 7}".write(
      toFile: service.stateDir + "/state.json", atomically: true, encoding: .utf8)
    try "[[alarm]]\ntime = \"25:00\"\n".write(
      toFile: service.configPath, atomically: true, encoding: .utf8)
    try service.start()
    #expect(service.log.contains("moved it to \(service.stateDir)/state.json.bad-"))
    let names = try FileManager.default.contentsOfDirectory(atPath: service.stateDir)
    #expect(names.contains { $0.hasPrefix("state.json.bad-") })
    #expect(service.log.contains("ringing the last good config"))
    let status = try service.status()
    #expect((status["config"] as? [String: Any])?["ok"] as? Bool == false)
    #expect(try Self.nextIDs(service).contains("wake"), "the last good config's alarms ring")
    #expect(service.terminate() == 0)
  }

  /// Polling `status` does not rewrite the state file each time (SD cards wear out);
  /// a real change is written at once.
  @Test func pollingDoesNotRewriteTheStateFile() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config(Self.twoAlarms))
    let path = service.stateDir + "/state.json"
    func inode() -> UInt64? {
      var st = stat()
      return stat(path, &st) == 0 ? UInt64(st.st_ino) : nil
    }
    _ = try service.status()
    let before = inode()
    for _ in 0..<5 {
      _ = try service.status()
      usleep(1_100_000 / 5)
    }
    #expect(inode() == before, "an atomic rewrite would give the file a new inode")
    #expect(try service.ctl(["skip", "gym"]).status == 0)
    #expect(inode() != before)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"gym\""))
    #expect(service.terminate() == 0)
  }

  /// `timedatectl set-timezone` replaces /etc/localtime: the service follows at once. Run
  /// in a private mount namespace with a tmpfs over /etc, so the machine is not touched.
  @Test(.enabled(if: getuid() == 0 && FileManager.default.fileExists(atPath: "/usr/bin/unshare")))
  func aNewSystemTimeZoneAppliesAtOnce() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    try "[[alarm]]\nid = \"w\"\ntime = \"06:45\"\ndays = \"daily\"\n".write(
      toFile: dir.file("alarms.toml"), atomically: true, encoding: .utf8)
    let b = CLI.binary
    let d = dir.path
    let script = """
      set -e
      mount -t tmpfs etc /etc
      ln -s /usr/share/zoneinfo/UTC /etc/localtime
      \(b) run --config \(d)/alarms.toml --state-dir \(d)/state --socket \(d)/s.sock \\
        --no-terminal > \(d)/log 2>&1 &
      pid=$!
      for i in $(seq 100); do [ -S \(d)/s.sock ] && break; sleep 0.05; done
      \(b) next --socket \(d)/s.sock --config \(d)/alarms.toml --json
      ln -s /usr/share/zoneinfo/Asia/Taipei /etc/localtime.new
      mv -T /etc/localtime.new /etc/localtime
      for i in $(seq 100); do grep -q 'system time zone changed' \(d)/log && break; sleep 0.05; done
      \(b) next --socket \(d)/s.sock --config \(d)/alarms.toml --json
      kill $pid; wait $pid
      """
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = nil
    let r = try Tool.run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", script], environment: env)
    #expect(r.status == 0, "\(r.err)")
    let lines = r.out.split(separator: "\n")
    #expect(lines.count == 2 && lines[0].contains("06:45:00+00:00"), "\(r.out)")
    #expect(lines.count == 2 && lines[1].contains("06:45:00+08:00"), "\(r.out)")
  }

  @Test func aOneOffIsDoneAfterItRangAndListSaysSo() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let firing = TestClock.firing(in: 2)
    let alarm = "[[alarm]]\nid = \"nap\"\ntime = \"\(firing.text)\"\nring_for = \"1s\"\n"
    let service = try ServiceProcess(dir: dir, config: Self.config(alarm))
    let list = ["list", "--config", service.configPath, "--state-dir", service.stateDir]
    #expect(try CLI.run(list).stdout.contains("  on  Once  Alarm  [nap]"))
    try service.waitForLog("session of 'nap' ended: silenced", timeout: 10)
    #expect(try CLI.run(list).stdout.contains("  done  Once  Alarm  [nap]"))
    #expect(try Self.nextIDs(service).isEmpty, "a one-off rings once")
    #expect(service.terminate() == 0)
  }

  @Test func readyIsNotifiedAndTheSocketSurvivesAbuse() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    // A notify socket like systemd's, read by a small Python listener.
    let notifySocket = dir.file("notify.sock")
    let listener = Process()
    listener.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    listener.arguments = [
      "-c",
      """
      import socket, sys
      s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])
      open(sys.argv[1] + ".bound", "w").close()
      out = open(sys.argv[2], "a")
      while True:
          out.write(s.recv(4096).decode() + "\\n"); out.flush()
      """,
      notifySocket, dir.file("notify.log"),
    ]
    // Its output must not hold the test runner's pipe open; SIGKILL because children of
    // the test process may inherit a mask that blocks SIGTERM.
    listener.standardOutput = FileHandle.nullDevice
    listener.standardError = FileHandle.nullDevice
    try listener.run()
    defer { kill(listener.processIdentifier, SIGKILL) }
    try waitFor("the notify listener", timeout: 10) {
      FileManager.default.fileExists(atPath: notifySocket + ".bound")
    }
    let firing = TestClock.firing(in: 6)
    let alarm =
      "[[alarm]]\nid = \"wake\"\ntime = \"\(firing.text)\"\ndays = \"daily\"\nring_for = \"3s\"\n"
    let service = try ServiceProcess(
      dir: dir, config: Self.config(alarm),
      environment: ["NOTIFY_SOCKET": notifySocket, "WATCHDOG_USEC": "400000"])
    try waitFor("READY=1 and a watchdog ping", timeout: 10) {
      let text = (try? String(contentsOfFile: dir.file("notify.log"), encoding: .utf8)) ?? ""
      return text.contains("READY=1") && text.contains("STATUS=ready: next wake")
        && text.contains("WATCHDOG=1")
    }

    let abuse = try Tool.run([
      CLI.repo.appendingPathComponent("scripts/socket-abuse").path, service.socket,
      "--half-open", "150", "--garbage", "400", "--oversized", "10", "--concurrent", "150",
    ])
    #expect(abuse.status == 0, "\(abuse.out)\(abuse.err)")
    #expect(abuse.out.contains("\"status_ok\": 150"), "\(abuse.out)")
    try service.waitForLog("ringing 'wake'", timeout: 15)
    #expect(service.isRunning)
    #expect(try service.status()["version"] as? String != nil)
    #expect(service.terminate() == 0)
    let notified = (try? String(contentsOfFile: dir.file("notify.log"), encoding: .utf8)) ?? ""
    #expect(notified.contains("STOPPING=1"))
  }
}
