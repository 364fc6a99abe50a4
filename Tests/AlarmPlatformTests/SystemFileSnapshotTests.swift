import AlarmPlatform
import AudioTestSupport
import Foundation
import Glibc
import Testing

/// FileSnapshot's compare-and-swap on real files: a file changed between read and write
/// is never overwritten; an unchanged one is replaced atomically with its mode kept.
@Suite struct SystemFileSnapshotTests {
  func write(_ path: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test func replacesAnUnchangedFileKeepingItsMode() throws {
    let dir = try TempDir("snapshot")
    defer { dir.remove() }
    let path = dir.file("alarms.toml")
    try write(path, "old\n")
    chmod(path, 0o640)
    let snapshot = try FileSnapshot.read(path)
    #expect(snapshot.bytes == Array("old\n".utf8))
    #expect(try snapshot.isCurrent())
    #expect(try snapshot.replace(with: Array("new\n".utf8)))
    #expect(try read(path) == "new\n")
    var st = stat()
    stat(path, &st)
    #expect(st.st_mode & 0o7777 == 0o640)
    #expect(dir.entries() == ["alarms.toml"])  // no temp file left
  }

  @Test func refusesWhenTheFileChangedBetweenReadAndWrite() throws {
    let dir = try TempDir("snapshot")
    defer { dir.remove() }
    let path = dir.file("alarms.toml")
    try write(path, "time = 1\n")
    let snapshot = try FileSnapshot.read(path)
    try write(path, "time = 2\n")  // someone else saves meanwhile: same size
    #expect(try !snapshot.isCurrent())
    #expect(try !snapshot.replace(with: Array("mine\n".utf8)))
    #expect(try read(path) == "time = 2\n")
    #expect(dir.entries() == ["alarms.toml"])
  }

  @Test func refusesWhenTheFileWasReplacedOrRemoved() throws {
    let dir = try TempDir("snapshot")
    defer { dir.remove() }
    let path = dir.file("alarms.toml")
    try write(path, "a\n")
    let snapshot = try FileSnapshot.read(path)
    // An editor that saves by rename, with the very same bytes: a new inode.
    try write(dir.file("other"), "a\n")
    rename(dir.file("other"), path)
    #expect(try !snapshot.replace(with: Array("b\n".utf8)))
    #expect(try read(path) == "a\n")
    unlink(path)
    #expect(try !snapshot.replace(with: Array("b\n".utf8)))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func writesThroughASymlink() throws {
    let dir = try TempDir("snapshot")
    defer { dir.remove() }
    let real = dir.file("real.toml")
    let link = dir.file("alarms.toml")
    try write(real, "a\n")
    symlink(real, link)
    let snapshot = try FileSnapshot.read(link)
    #expect(try snapshot.replace(with: Array("b\n".utf8)))
    #expect(try read(real) == "b\n")
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == real)
  }
}
