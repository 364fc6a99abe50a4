import AudioTestSupport
import Foundation
import Testing

/// "What rings next?" has one answer: after `alarmclock skip`, offline `next` (text and
/// `--json`, with the service's state file) and `next --socket` say what `status` says, in
/// one shape, and `next --socket` needs no config file. Black-box, the real binary.
@Suite(.serialized) struct NextAgreementTests {
  @Test func nextAgreesWithTheServiceAfterASkip() throws {
    let dir = try TempDir("service")
    defer { dir.remove() }
    let service = try ServiceProcess(
      dir: dir, config: ServiceControlTests.config(ServiceControlTests.twoAlarms))
    let skip = try service.ctl(["skip", "wake"])
    #expect(skip.status == 0, "\(skip.stderr)")
    let offlineArgs = [
      "next", "--config", service.configPath, "--state-dir", service.stateDir, "--count", "3",
    ]
    let offline = try CLI.run(offlineArgs + ["--json"], environment: ["TZ": "UTC"])
    #expect(offline.status == 0, "\(offline.stderr)")
    // Only the socket: no config file at all where the CLI would look.
    let asked = try CLI.run(
      ["next", "--socket", service.socket, "--count", "3", "--json"],
      environment: ["TZ": "UTC", "ALARMCLOCK_CONFIG": dir.file("absent.toml")])
    #expect(asked.status == 0, "\(asked.stderr)")
    #expect(
      asked.stdout == offline.stdout, "offline:\n\(offline.stdout)\nservice:\n\(asked.stdout)")

    let firings = try Self.objects(offline.stdout)
    #expect(firings.count == 3)
    for f in firings {
      #expect(Set(f.keys) == ["id", "label", "at", "time", "sound", "skipped"], "\(f)")
    }
    let statusNext = (try service.status()["next"] as? [[String: Any]] ?? []).prefix(3)
    #expect(statusNext.map { $0["at"] as? String } == firings.map { $0["at"] as? String })
    #expect(statusNext.map { $0["id"] as? String } == firings.map { $0["id"] as? String })
    // The skipped occurrence is listed under wake's next firing, not as its next firing.
    let wake = try #require(firings.first { $0["id"] as? String == "wake" })
    let skipped = wake["skipped"] as? [[String: Any]] ?? []
    #expect(skipped.map { $0["kind"] as? String } == ["once"], "\(wake)")
    #expect(!(skip.stdout.contains(wake["at"] as? String ?? "-")), "\(skip.stdout) \(wake)")

    let text = try CLI.run(offlineArgs, environment: ["TZ": "UTC"])
    #expect(text.stdout.contains("  skipped once: "), "\(text.stdout)")
    #expect(service.terminate() == 0)
  }

  /// A message of the CLI ends its line.
  @Test func aMissingConfigIsReportedOnALineOfItsOwn() throws {
    let dir = try TempDir("next")
    defer { dir.remove() }
    let r = try CLI.run(["next", "--config", dir.file("absent.toml")])
    #expect(r.status != 0)
    #expect(r.stderr.hasSuffix("\n") && r.stderr.contains("absent.toml"), "\(r.stderr)")
  }

  static func objects(_ json: String) throws -> [[String: Any]] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]], "\(json)")
  }
}
