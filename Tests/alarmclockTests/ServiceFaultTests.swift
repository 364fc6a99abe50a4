import AudioTestSupport
import Foundation
import Testing

/// Faults the service must ride out, in a few seconds each (bench/faults has the long runs:
/// kill -9 cycles, the audio server lost, a full disk, broken sounds, socket abuse).
@Suite(.serialized) struct ServiceFaultTests {
  static var alarms: String {
    """
    [[alarm]]
    id = "wake"
    time = "\(awayFromNow(hours: 6))"
    days = "daily"
    """
  }

  /// An emptied config (what a save cut short by a full disk or a power cut leaves) is
  /// rejected like a broken one, at run time and at start-up: it never means "no alarms".
  @Test func anEmptyConfigKeepsTheLastGoodOne() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(
      dir: dir, config: ServiceControlTests.config(Self.alarms))
    try ServiceControlTests.save("", to: service.configPath)
    try service.waitForLog("config rejected (file changed)")
    let config = try service.status()["config"] as? [String: Any]
    #expect(config?["ok"] as? Bool == false)
    #expect(
      (config?["errors"] as? [String])?.first?.hasSuffix(
        "alarms.toml: the file is empty; the last good config stays in force") == true,
      "\(String(describing: config))")
    #expect(try ServiceControlTests.nextIDs(service) == Array(repeating: "wake", count: 5))

    // Restarted on the empty file: the copy of the last good config rings.
    service.kill9()
    try service.start()
    #expect(service.log.contains("is unusable: ringing the last good config"))
    #expect(try ServiceControlTests.nextIDs(service).first == "wake")
    #expect(service.terminate() == 0)
  }

  /// A symlink loop and an oversized file in place of the config: rejected, alarms kept.
  @Test func aSymlinkLoopOrAHugeFileKeepsTheLastGoodOne() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(
      dir: dir, config: ServiceControlTests.config(Self.alarms))
    let path = service.configPath
    try FileManager.default.createSymbolicLink(
      atPath: path + ".new", withDestinationPath: "alarms.toml")
    #expect(rename(path + ".new", path) == 0)
    try service.waitForLog("Too many levels of symbolic links")
    #expect(try ServiceControlTests.nextIDs(service).first == "wake")

    let big = path + ".big"
    #expect(FileManager.default.createFile(atPath: big, contents: nil))
    #expect(truncate(big, 20 << 20) == 0)  // sparse: 20 MiB of zeros, over the 16 MiB limit
    #expect(rename(big, path) == 0)
    try service.waitForLog("too large")
    #expect(try ServiceControlTests.nextIDs(service).first == "wake")
    #expect(service.terminate() == 0)
  }

  /// `[settings] state_dir` and `socket` are where the service keeps its memory: after a
  /// typo and a power cut it still finds `last-good.toml` there and listens where the CLI
  /// looks, instead of starting with no alarm at the defaults.
  @Test func theConfiguredStateDirAndSocketSurviveABrokenConfig() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let state = dir.file("mine")
    let socket = state + "/my.sock"
    let settings = "state_dir = \"\(state)\"\nsocket = \"\(socket)\""
    let good = ServiceControlTests.config(Self.alarms).replacingOccurrences(
      of: "[settings]\n", with: "[settings]\n\(settings)\n")
    let service = try ServiceProcess(dir: dir, config: good, pathFlags: false)
    #expect(FileManager.default.fileExists(atPath: state + "/last-good.toml"))
    // A typo elsewhere in the file: it no longer decodes.
    try ServiceControlTests.save(good + "\n[[alarm]]\ntime = \"25:99\"\n", to: service.configPath)
    try service.waitForLog("config rejected (file changed)")
    service.kill9()
    try service.start()
    #expect(service.log.contains("is unusable: ringing the last good config"), "\(service.log)")
    #expect(service.log.contains("state \(state), socket \(socket)"), "\(service.log)")
    // The CLI finds the socket in the broken file as well.
    let status = try CLI.run(
      ["status", "--json", "--config", service.configPath], environment: ["TZ": "UTC"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("\"wake\""), "\(status.stdout)")
    #expect(service.terminate() == 0)
  }
}
