import AlarmCore
import AudioTestSupport
import Foundation
import Testing

/// deploy/alarmclock.bash against the built binary: every command `--help` lists is
/// completed, with exactly the options its own `--help` names, and no option is offered
/// where an option's value is due. Run through bash, as a shell would.
@Suite struct CompletionTests {
  static let script = CLI.repo.appendingPathComponent("deploy/alarmclock.bash").path

  /// The commands `alarmclock --help` lists.
  static func commands() throws -> [String] {
    let help = try CLI.run(["--help"]).stdout
    guard let start = help.range(of: "commands:\n") else { return [] }
    return help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  /// The `--options` a command's help names, and those written with a value (`--x NAME`).
  static func options(of command: String) throws -> (all: Set<String>, withValue: Set<String>) {
    let help = try CLI.run([command, "--help"]).stdout
    let all = Set(help.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) })
    let withValue = Set(
      help.matches(of: /(--[a-z][a-z0-9-]*) [A-Z][A-Z]*\b/).map { String($0.output.1) })
    return (all, withValue)
  }

  /// What the completion offers for the last of `words` (after `alarmclock`).
  static func complete(_ words: [String]) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments =
      [
        "-c",
        #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _alarmclock; "#
          + #"printf '%s\n' "${COMPREPLY[@]}""#, "_", script, "alarmclock",
      ] + words
    let out = Pipe()
    process.standardOutput = out
    process.currentDirectoryURL = FileManager.default.temporaryDirectory
    // The ids come from the built binary, as from the installed one.
    var env = ProcessInfo.processInfo.environment
    env["PATH"] =
      URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "")
    process.environment = env
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func everyCommandIsCompleted() throws {
    let commands = try Self.commands()
    #expect(commands.count > 10)
    let offered = Set(try Self.complete([""]))
    #expect(offered == Set(commands + ["help", "--help"]))
  }

  @Test func eachCommandOffersExactlyTheOptionsOfItsHelp() throws {
    for command in try Self.commands() {
      let (all, _) = try Self.options(of: command)
      let offered = Set(try Self.complete([command, "--"]))
      #expect(offered == all.union(["--help"]), "alarmclock \(command)")
    }
  }

  @Test func valuesOfLevelsAndDirectories() throws {
    #expect(try Self.complete(["run", "--log-level", "n"]) == ["notice"])
    #expect(try Self.complete(["play", "--sound-dir", "/e"]) == ["/etc"])
    #expect(try Self.complete(["add", "--sound-order", "r"]) == ["rotate"])
    #expect(try Self.complete(["edit", "--unset", "sound_"]) == ["sound_order"])
    // Exactly the keys the command takes (their one declaration, AlarmKey+Fields.swift).
    #expect(
      Set(try Self.complete(["edit", "--unset", ""]))
        == Set(AlarmKey.unsettableKeys.map(\.rawValue)))
  }

  @Test func noOptionIsOfferedWhereAValueIsDue() throws {
    for command in try Self.commands() {
      for option in try Self.options(of: command).withValue {
        // A value may start with '-' ("-5"); it must not be completed as an option.
        let offered = try Self.complete([command, option, "-"])
        #expect(
          !offered.contains { $0.hasPrefix("--") },
          "alarmclock \(command) \(option) offers \(offered)")
      }
    }
  }

  @Test func remindVerbsTheirOptionsAndReminderIDs() throws {
    let dir = try TempDir("complete")
    defer { dir.remove() }
    let config = try dir.write("alarms.toml", "[[alarm]]\ntime = \"06:45\"\n")
    _ = try dir.write(
      "reminders.toml", "[[reminder]]\nid = \"bins\"\ntitle = \"Bins\"\ndone = true\n")
    let verbs = try Self.complete(["remind", ""])
    #expect(Set(verbs) == ["add", "list", "done", "undone", "edit", "move", "remove"])
    let listOptions = try Self.complete(["remind", "list", "--"])
    #expect(Set(listOptions) == ["--all", "--json", "--config", "--help"])
    let moveOptions = try Self.complete(["remind", "move", "bins", "--"])
    #expect(Set(moveOptions) == ["--to", "--config", "--help"])
    // Done ones too: `undone` wants them.
    let ids = try Self.complete(["remind", "--config", config, "undone", ""])
    #expect(ids == ["bins"])
    let due = try Self.complete(["remind", "add", "x", "--due", "-"])
    #expect(due.isEmpty)
  }
}
