import Foundation
import Testing

/// The CLI's usage contract: --help everywhere, exit 2 on usage errors.
@Suite struct UsageTests {
  @Test func topLevelHelpListsCommands() throws {
    let r = try CLI.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("usage: alarmclock COMMAND"))
    #expect(r.stdout.contains("check"))
  }

  /// One version string (AlarmCore's AlarmclockVersion): the package and `status` say it too.
  @Test func versionIsTheOneVersionString() throws {
    let source = try String(
      contentsOf: CLI.repo.appendingPathComponent("Sources/AlarmCore/Model/Version.swift"),
      encoding: .utf8)
    let r = try CLI.run(["--version"])
    #expect(r.status == 0)
    let version = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(version.hasPrefix("alarmclock "))
    #expect(source.contains("\"\(version.dropFirst("alarmclock ".count))\""), "\(version)")
  }

  @Test func noArgumentsIsAUsageError() throws {
    let r = try CLI.run([])
    #expect(r.status == 2)
    #expect(r.stderr.contains("usage:"))
  }

  @Test func unknownCommandIsAUsageError() throws {
    let r = try CLI.run(["frobnicate"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("unknown command 'frobnicate'"))
  }

  @Test func unknownOptionIsAUsageError() throws {
    let r = try CLI.run(["check", "--bogus"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("unknown option '--bogus'"))
  }

  @Test func commandHelpExitsZero() throws {
    let r = try CLI.run(["check", "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("usage: alarmclock check"))
  }
}
