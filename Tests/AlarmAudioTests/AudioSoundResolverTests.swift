import AlarmCore
import AlarmFiles
import AudioTestSupport
import Foundation
import Testing

@testable import AlarmPlatform

@Suite struct AudioSoundResolverTests {
  func makeDirs() throws -> (TempDir, String, String) {
    let t = try TempDir("resolver")
    let user = t.file("etc-sounds")
    let bundled = t.file("share-sounds")
    for d in [user, bundled] {
      try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    }
    for (dir, name) in [
      (user, "rooster.mp3"), (user, "鬧鐘 早安.wav"), (bundled, "rooster.wav"),
      (bundled, "chime-rise.wav"), (bundled, "bell.flac"), (bundled, "plain"),
    ] {
      _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1]))
    }
    return (t, user, bundled)
  }

  @Test func namesResolveWithOrWithoutExtensionInOrder() throws {
    let (t, user, bundled) = try makeDirs()
    defer { t.remove() }
    let r = SoundResolver(directories: [user, bundled])
    #expect(try r.resolve("rooster") == user + "/rooster.mp3")  // first directory wins
    #expect(try r.resolve("rooster.wav") == bundled + "/rooster.wav")
    #expect(try r.resolve("bell") == bundled + "/bell.flac")
    #expect(try r.resolve("plain") == bundled + "/plain")
    #expect(try r.resolve("鬧鐘 早安") == user + "/鬧鐘 早安.wav")
    #expect(r.defaultSound() == bundled + "/chime-rise.wav")
    #expect(throws: SoundError(file: "nothing", reason: .notFound(searched: [user, bundled]))) {
      try r.resolve("nothing")
    }
  }

  @Test func aFolderIsLocatedAndListsOnlyItsPlayableFiles() throws {
    let (t, user, bundled) = try makeDirs()
    defer { t.remove() }
    let folder = user + "/mornings"
    try FileManager.default.createDirectory(
      atPath: folder + "/sub", withIntermediateDirectories: true)
    for name in ["a.WAV", "b.opus", ".hidden.mp3", "notes.txt", "sub/c.wav", "noext"] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data([1]))
    }
    // A link to a file inside counts; one leading out of the folder does not.
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/inside.flac", withDestinationPath: folder + "/a.WAV")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/outside.wav", withDestinationPath: bundled + "/rooster.wav")
    let r = SoundResolver(directories: [user, bundled])
    #expect(try r.locate("mornings") == .folder(folder))
    #expect(try r.locate("mornings/") == .folder(folder))
    #expect(try r.locate(folder) == .folder(folder))
    #expect(try r.locate("rooster") == .file(user + "/rooster.mp3"))
    #expect(throws: SoundError(file: folder, reason: .notAFile)) { try r.resolve("mornings") }
    #expect(
      try SoundResolver.playableFiles(in: folder).sorted() == ["a.WAV", "b.opus", "inside.flac"])
    #expect(throws: SoundError(file: folder + "/sub/x", reason: .missing)) {
      try SoundResolver.playableFiles(in: folder + "/sub/x")
    }
    let empty = user + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    #expect(throws: SoundError(file: empty, reason: .emptyFolder)) {
      try SoundResolver.playableFiles(in: empty)
    }
  }

  @Test func pathsAreUsedAsGiven() throws {
    let (t, user, bundled) = try makeDirs()
    defer { t.remove() }
    let r = SoundResolver(directories: [bundled])
    #expect(try r.resolve(user + "/rooster.mp3") == user + "/rooster.mp3")
    #expect(throws: SoundError(file: user + "/none.mp3", reason: .missing)) {
      try r.resolve(user + "/none.mp3")
    }
    #expect(throws: SoundError(file: user, reason: .notAFile)) { try r.resolve(user) }
  }

  @Test func namesCannotLeaveTheirDirectory() throws {
    let (t, user, bundled) = try makeDirs()
    defer { t.remove() }
    let r = SoundResolver(directories: [bundled])
    for name in ["../etc-sounds/rooster", "sub/../../etc-sounds/rooster.mp3", "a//b", ""] {
      #expect(throws: SoundError(file: name, reason: .escapesDirectory)) { try r.resolve(name) }
    }
    // A symlink inside the directory that points out of it is refused too.
    try FileManager.default.createSymbolicLink(
      atPath: bundled + "/sneaky.mp3", withDestinationPath: user + "/rooster.mp3")
    #expect(throws: SoundError(file: "sneaky", reason: .escapesDirectory)) {
      try r.resolve("sneaky")
    }
    // One that stays inside is fine.
    try FileManager.default.createSymbolicLink(
      atPath: bundled + "/alias.wav", withDestinationPath: bundled + "/rooster.wav")
    #expect(try r.resolve("alias") == bundled + "/alias.wav")
  }

  /// A `..` name is refused even when it reaches a real file from the working directory
  /// (the service used to open such a name there), with the check's rule (`SoundName`).
  @Test func aDotDotNameIsRefusedThoughTheFileIsThere() throws {
    let (t, user, bundled) = try makeDirs()
    defer { t.remove() }
    let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
    let name = Array(repeating: "..", count: depth).joined(separator: "/") + user + "/rooster.mp3"
    #expect(FileManager.default.fileExists(atPath: name))
    #expect(throws: SoundError(file: name, reason: .escapesDirectory)) {
      try SoundResolver(directories: [bundled]).resolve(name)
    }
    #expect(SoundName.problem(name)?.contains("would leave its sound directory") == true)
    #expect(SoundName.problem("./" + name) == nil, "a ./ path is a path, used as given")
    #expect(SoundName.problem("alarms/rooster") == nil)
  }

  @Test func defaultDirectoriesFollowTheBinary() {
    #expect(
      SoundResolver.defaultDirectories(executablePath: "/usr/local/bin/alarmclock") == [
        "/etc/alarmclock/sounds", "/usr/local/share/alarmclock/sounds",
      ])
    #expect(
      SoundResolver.defaultDirectories(executablePath: "/src/alarmclock/.build/release/alarmclock")
        == ["/etc/alarmclock/sounds", "/src/alarmclock/sounds"])
    #expect(
      SoundResolver.defaultDirectories(
        executablePath: "/src/ac/.build/x86_64-unknown-linux-gnu/debug/alarmclock")
        == ["/etc/alarmclock/sounds", "/src/ac/sounds"])
  }

  @Test func theBundledDefaultSoundExists() {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let r = SoundResolver(directories: [repo + "/sounds"])
    #expect(r.defaultSound() == repo + "/sounds/\(SoundResolver.defaultSoundName).wav")
  }
}
