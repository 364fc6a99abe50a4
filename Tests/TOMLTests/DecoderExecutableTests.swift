import Foundation
import Testing

/// Runs the built `toml-decode` executable the way toml-test does.
@Suite struct DecoderExecutableTests {
  /// The products sit beside the test bundle in the build directory.
  static func decoderURL() -> URL? {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("toml-decode")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    // Fall back to the conventional location relative to this source file.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let debug = root.appendingPathComponent(".build/debug/toml-decode")
    return FileManager.default.isExecutableFile(atPath: debug.path) ? debug : nil
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  func decode(_ input: [UInt8]) throws -> Run {
    let url = try #require(Self.decoderURL(), "toml-decode is not built (swift build)")
    let process = Process()
    process.executableURL = url
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  @Test func validDocumentPrintsTaggedJSON() throws {
    let toml = """
      title = "TOML \\"Example\\"\\n"
      [owner]
      dob = 1979-05-27T07:32:00.5-08:00
      [[alarm]]
      time = 06:45:00
      date = 2027-03-28
      at = 2027-03-28 06:45:00
      n = 0x1F
      f = [1.5, -inf, nan, 5e+22]
      ok = true
      nested = { "a b" = [] }
      """
    let run = try decode(Array(toml.utf8))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.isEmpty)
    let expected =
      #"{"title":{"type":"string","value":"TOML \"Example\"\n"},"#
      + #""owner":{"dob":{"type":"datetime","value":"1979-05-27T07:32:00.5-08:00"}},"#
      + #""alarm":[{"time":{"type":"time-local","value":"06:45:00"},"#
      + #""date":{"type":"date-local","value":"2027-03-28"},"#
      + #""at":{"type":"datetime-local","value":"2027-03-28T06:45:00"},"#
      + #""n":{"type":"integer","value":"31"},"#
      + #""f":[{"type":"float","value":"1.5"},{"type":"float","value":"-inf"},"#
      + #"{"type":"float","value":"nan"},{"type":"float","value":"5e+22"}],"#
      + #""ok":{"type":"bool","value":"true"},"nested":{"a b":[]}}]}"# + "\n"
    #expect(run.stdout == expected)
  }

  @Test func controlCharactersAreEscapedInJSON() throws {
    let run = try decode(Array(#"s = "\u0001\t\u007F""#.utf8))
    #expect(run.status == 0)
    #expect(run.stdout == #"{"s":{"type":"string","value":"\u0001\t\u007f"}}"# + "\n")
  }

  @Test func invalidDocumentExitsOneWithPosition() throws {
    let run = try decode(Array("a = 1\nb = ?\n".utf8))
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "2:5: expected a value, found '?'\n")
  }

  @Test func invalidUTF8IsRejected() throws {
    let run = try decode(Array("a = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8))
    #expect(run.status == 1)
    #expect(run.stderr == "1:6: invalid utf-8 byte 0xC3\n")
  }

  @Test func emptyInputIsAnEmptyTable() throws {
    let run = try decode([])
    #expect(run.status == 0)
    #expect(run.stdout == "{}\n")
  }
}
