import AlarmCore
import AlarmPlatform
import Foundation
import Testing

@Suite struct ZoneLoaderTests {
  @Test func loadsZonesByName() throws {
    let berlin = try ZoneLoader.load(identifier: "Europe/Berlin")
    #expect(berlin.identifier == "Europe/Berlin")
    #expect(berlin.offset(at: Instant(seconds: 1_815_000_000)) == 7200)
    let utc = try ZoneLoader.load(identifier: "UTC")
    #expect(utc.offset(at: Instant(seconds: 0)) == 0)
  }

  @Test(arguments: [
    ("/etc/localtime", "absolute path"), ("../../etc/passwd", "\"..\""),
    ("Europe/../Europe/Berlin", "\"..\""), ("", "empty"), ("Europe//Berlin", "empty"),
    ("Europe", "not a regular file"), ("Nowhere/Atlantis", "unknown time zone"),
    ("zone.tab", "not a TZif"), ("Europe/Ber lin", "spaces"),
  ])
  func rejectsWithAClearReason(identifier: String, reason: String) {
    do {
      _ = try ZoneLoader.load(identifier: identifier)
      Issue.record("accepted \(identifier)")
    } catch {
      #expect("\(error)".contains(reason), "\(error)")
    }
  }

  @Test func systemZoneFromTZ() throws {
    #expect(ZoneLoader.system(environment: ["TZ": ""]) == .utc)
    #expect(ZoneLoader.system(environment: ["TZ": ":Europe/Berlin"]).identifier == "Europe/Berlin")
    #expect(ZoneLoader.system(environment: ["TZ": "Asia/Tokyo"]).identifier == "Asia/Tokyo")
    let file = ZoneLoader.system(environment: ["TZ": ":/usr/share/zoneinfo/Asia/Taipei"])
    #expect(file.identifier == "Asia/Taipei")
    let posix = ZoneLoader.system(environment: ["TZ": "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"])
    #expect(posix.identifier == "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
    #expect(posix.offset(at: Instant(seconds: 1_815_000_000)) == 37800)
    #expect(ZoneLoader.system(environment: ["TZ": "Bogus/Zone"]) == .utc)
    #expect(ZoneLoader.system(environment: ["TZ": "../../etc/passwd"]) == .utc)
  }

  @Test func systemZoneFromLocaltime() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "zoneloader-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let link = dir.appendingPathComponent("localtime-link").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "/usr/share/zoneinfo/America/Santiago")
    let linked = ZoneLoader.system(environment: [:], localtime: link)
    #expect(linked.identifier == "America/Santiago")
    #expect(linked.offset(at: Instant(seconds: 1_815_000_000)) == -4 * 3600)
    let copy = dir.appendingPathComponent("localtime-copy").path
    try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: copy)
    let copied = ZoneLoader.system(environment: [:], localtime: copy)
    #expect(copied.identifier == "localtime")
    #expect(copied.offset(at: Instant(seconds: 0)) == 9 * 3600)
    #expect(
      ZoneLoader.system(environment: [:], localtime: dir.appendingPathComponent("none").path)
        == .utc)
    // TZ wins over /etc/localtime.
    #expect(ZoneLoader.system(environment: ["TZ": "UTC0"], localtime: link).identifier == "UTC0")
  }

  /// glibc's own answer, from a child process so no TZ change leaks into
  /// other tests: GNU date formats each instant with localtime(3).
  private func glibcLocal(_ zone: String, _ instants: [Int64]) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/date")
    process.arguments = ["-f", "-", "+%Y-%m-%dT%H:%M:%S %z %Z"]
    process.environment = ["TZ": ":" + zone, "LC_ALL": "C"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let text = instants.map { "@\($0)\n" }.joined()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(text.utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  private func mine(_ z: TimeZoneRules, _ t: Int64) -> String {
    let (date, time, offset) = z.local(at: Instant(seconds: t))
    let a = abs(offset) / 60
    let hm = String(a / 60 * 100 + a % 60)
    let z4 = String(repeating: "0", count: 4 - hm.count) + hm
    let clock = [time.hour, time.minute, time.second]
      .map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    let abbreviation = z.abbreviation(at: Instant(seconds: t))
    // strftime writes "-0000" for the "-00" designation (local time unknown).
    let sign = offset < 0 || abbreviation == "-00" ? "-" : "+"
    return "\(date)T\(clock) \(sign)\(z4) \(abbreviation)"
  }

  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham",
    "America/Santiago", "Asia/Taipei", "Pacific/Apia", "Asia/Pyongyang", "Europe/Moscow",
    "America/Nuuk", "Asia/Jerusalem", "Africa/Casablanca", "America/Sao_Paulo", "Europe/Dublin",
    "Antarctica/Troll", "Pacific/Kiritimati", "Asia/Kolkata", "America/St_Johns",
  ])
  func agreesWithGlibcLocaltime(identifier: String) throws {
    let z = try ZoneLoader.load(identifier: identifier)
    var rng = SystemRandomNumberGenerator()
    // 1900 to 2150, plus the seconds around each transition of 1970-2040.
    var instants = (0..<1000).map { _ in
      Int64.random(in: -2_208_988_800...5_680_281_600, using: &rng)
    }
    for t in z.transitions(from: Instant(seconds: 0), through: Instant(seconds: 2_208_988_800)) {
      instants += [t.seconds - 1, t.seconds, t.seconds + 1]
    }
    let expected = try glibcLocal(identifier, instants)
    #expect(expected.count == instants.count)
    for (t, want) in zip(instants, expected) {
      #expect(mine(z, t) == want, "\(identifier) @\(t)")
    }
  }
}
