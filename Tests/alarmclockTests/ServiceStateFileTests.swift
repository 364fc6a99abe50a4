import AudioTestSupport
import Foundation
import Testing

/// The state directory's files when a user mixes `sudo alarmclock run` with the packaged
/// service (issue 27): a file the service cannot read is kept, never moved aside, and a
/// run as root leaves files the service's user can read.
@Suite(.serialized) struct ServiceStateFileTests {
  static let nobody: uid_t = 65534
  static let config = """
    [settings]
    timezone = "UTC"

    [[alarm]]
    id = "wake"
    time = "\(awayFromNow(hours: 6))"
    days = "daily"
    """

  /// Runs the service as `nobody` when the tests run as root (root reads every file), so
  /// that a root-owned file is as unreadable to it as to the packaged service's user.
  static func launcher() -> [String] {
    geteuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"] : []
  }

  /// A directory the service may use as `launcher()`'s user.
  static func tempDir() throws -> TempDir {
    let dir = try TempDir("service")
    if geteuid() == 0 { #expect(chown(dir.path, nobody, nobody) == 0) }
    return dir
  }

  static func bytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  /// Makes `path` unreadable to the service: root's, mode 0600 (what a hand run as root of
  /// an older version left), or mode 0 when the tests are not root.
  static func makeUnreadable(_ path: String) {
    if geteuid() == 0 {
      #expect(chown(path, 0, 0) == 0 && chmod(path, 0o600) == 0)
    } else {
      #expect(chmod(path, 0) == 0)
    }
  }

  static func makeReadable(_ path: String) {
    if geteuid() == 0 { #expect(chown(path, nobody, nobody) == 0) }
    #expect(chmod(path, 0o640) == 0)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func anUnreadableStateFileIsKeptAndNeverWrittenOver() throws {
    let dir = try Self.tempDir()
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config, launcher: Self.launcher())
    #expect(try service.ctl(["skip", "wake"]).status == 0)
    #expect(service.terminate() == 0)
    let path = service.stateDir + "/state.json"
    let saved = Self.bytes(path)
    #expect(saved.map { String(decoding: $0, as: UTF8.self).contains("\"wake\"") } == true)

    Self.makeUnreadable(path)
    try service.start()
    #expect(service.log.contains("Permission denied"), "\(service.log)")
    #expect(service.log.contains("it is kept as it is"), "\(service.log)")
    #expect(!service.log.contains("moved it to"), "\(service.log)")
    // A change the service would save: it must not replace the file it could not read.
    _ = try service.ctl(["skip", "wake"])
    let inputs = try service.status()["inputs"] as? [[String: Any]] ?? []
    #expect(
      inputs.contains { $0["name"] as? String == "state" && $0["available"] as? Bool == false },
      "status says the state is not being saved: \(inputs)")
    #expect(service.terminate() == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: service.stateDir)
    #expect(!names.contains { $0.hasPrefix("state.json.bad-") }, "\(names)")
    Self.makeReadable(path)
    #expect(Self.bytes(path) == saved, "the kept file is untouched")

    // Its owner fixed, the next start has the skip back.
    try service.start()
    #expect(!service.log.contains("moved it to"))
    #expect(try service.ctl(["unskip", "wake"]).status == 0, "the skip was remembered")
    #expect(service.terminate() == 0)
  }

  static func nextIDs(_ service: ServiceProcess) throws -> [String] {
    (try service.status()["next"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  /// The same for `last-good.toml` while the config is broken: the copy the service cannot
  /// read is kept as it is and the log says why no alarm is set; once readable again, its
  /// alarms ring while the config stays broken.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func anUnreadableLastGoodConfigIsKeptWhileTheConfigIsBroken() throws {
    let dir = try Self.tempDir()
    defer { dir.remove() }
    let service = try ServiceProcess(dir: dir, config: Self.config, launcher: Self.launcher())
    #expect(try Self.nextIDs(service).first == "wake")
    #expect(service.terminate() == 0)
    let lastGood = service.stateDir + "/last-good.toml"
    let saved = Self.bytes(lastGood)
    #expect(saved != nil, "the good config was saved")

    try Data("[settings\ntimezone = \"UTC\"\n".utf8).write(
      to: URL(fileURLWithPath: service.configPath))
    Self.makeUnreadable(lastGood)
    try service.start()
    #expect(
      service.log.contains("is unusable and the last good copy is unreadable"), "\(service.log)")
    #expect(service.log.contains("Permission denied"), "\(service.log)")
    #expect(try Self.nextIDs(service).isEmpty)
    #expect(service.terminate() == 0)
    Self.makeReadable(lastGood)
    #expect(Self.bytes(lastGood) == saved, "the unreadable copy is untouched")

    try service.start()
    #expect(service.log.contains("ringing the last good config"), "\(service.log)")
    #expect(try Self.nextIDs(service).first == "wake")
    #expect(service.terminate() == 0)
  }

  /// As root, on the state of the service's user (a hand run of `sudo alarmclock run`
  /// next to the packaged service): the state is read, not moved aside as planted, the
  /// files written stay that user's, and the start-up log says that it runs as root and
  /// where it writes.
  @Test(
    .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))
  )
  func aRunAsRootKeepsTheServiceUsersStateAndItsOwner() throws {
    let dir = try Self.tempDir()
    defer { dir.remove() }
    let asUser = try ServiceProcess(dir: dir, config: Self.config, launcher: Self.launcher())
    #expect(try asUser.ctl(["skip", "wake"]).status == 0)
    #expect(asUser.terminate() == 0)

    let service = try ServiceProcess(dir: dir, config: Self.config)
    let stateDir = service.stateDir
    #expect(service.log.contains("running as root: writing \(stateDir)/state.json"))
    #expect(!service.log.contains("moved it to"), "\(service.log)")
    #expect(try service.ctl(["unskip", "wake"]).status == 0, "the user's skip was read")
    #expect(try service.ctl(["skip", "wake"]).status == 0)
    #expect(service.terminate() == 0)
    for name in ["state.json", "last-good.toml"] {
      var st = stat()
      #expect(stat(stateDir + "/" + name, &st) == 0, "\(name) was written")
      #expect(st.st_uid == Self.nobody && st.st_gid == Self.nobody, "\(name): uid \(st.st_uid)")
    }
  }
}
