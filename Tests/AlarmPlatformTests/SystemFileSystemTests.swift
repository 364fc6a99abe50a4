import AlarmPlatform
import AudioTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@Suite struct SystemFileSystemTests {
  @Test func atomicWriteStoresContentAndModeAndLeavesNoTemp() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    let path = dir.file("state.json")
    try AtomicFile.write("{\"v\":1}\n", to: path, mode: 0o600)
    #expect(try FileSystem.readText(path) == "{\"v\":1}\n")
    let st = try #require(try FileSystem.status(path))
    #expect(st.st_mode & 0o777 == 0o600)
    try AtomicFile.write("{\"v\":2}\n", to: path, mode: 0o640)
    #expect(try FileSystem.readText(path) == "{\"v\":2}\n")
    #expect(try #require(try FileSystem.status(path)).st_mode & 0o777 == 0o640)
    #expect(dir.entries() == ["state.json"])
  }

  @Test func atomicWriteIntoMissingDirectoryFailsClearly() {
    #expect(throws: SystemError.self) {
      try AtomicFile.write("x", to: "/nonexistent-dir-for-test/state.json")
    }
  }

  @Test func readersNeverSeeAPartialFile() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    let path = dir.file("config.toml")
    let a = [UInt8](repeating: UInt8(ascii: "a"), count: 300_000)
    let b = [UInt8](repeating: UInt8(ascii: "b"), count: 500_000)
    try AtomicFile.write(a, to: path)
    let stop = Atomic<Bool>(false)
    let bad = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
    let reader = Thread {
      while !stop.load(ordering: .relaxed) {
        guard let got = try? FileSystem.readFile(path) else {
          bad.add(1, ordering: .relaxed)
          continue
        }
        if got != a && got != b { bad.add(1, ordering: .relaxed) }
        reads.add(1, ordering: .relaxed)
      }
    }
    reader.start()
    for i in 0..<40 { try AtomicFile.write(i % 2 == 0 ? b : a, to: path) }
    stop.store(true, ordering: .relaxed)
    while !reader.isFinished { usleep(1000) }
    #expect(bad.load(ordering: .relaxed) == 0)
    #expect(reads.load(ordering: .relaxed) > 0)
    #expect(dir.entries() == ["config.toml"])
  }

  @Test func readFileRefusesFilesOverTheCap() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    let path = dir.file("huge.toml")
    // A sparse 100 MB file: the size check must refuse it without reading it.
    let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT)
    #expect(ftruncate(fd.rawValue, 100_000_000) == 0)
    fd.close()
    do {
      _ = try FileSystem.readFile(path)
      Issue.record("a 100 MB file was read")
    } catch {
      #expect(error.errno == EFBIG)
      #expect(
        error.description
          == "read(\(path)): file is 100000000 bytes, more than the limit of 16777216 (errno 27)")
    }
    #expect(throws: SystemError.self) { try FileSystem.readFile(path, limit: 10) }
  }

  @Test func readFileRefusesDirectoriesAndFIFOs() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    #expect(throws: SystemError("read(\(dir.path))", errno: EISDIR)) {
      try FileSystem.readFile(dir.path)
    }
    let fifo = dir.file("fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: SystemError.self) { try FileSystem.readFile(fifo) }
  }

  @Test func readsEmptyAndMissingFiles() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    try AtomicFile.write([], to: dir.file("empty"))
    #expect(try FileSystem.readFile(dir.file("empty")) == [])
    #expect(throws: SystemError("open(\(dir.file("missing")))", errno: ENOENT)) {
      try FileSystem.readFile(dir.file("missing"))
    }
  }

  @Test func createDirectoryWithIntermediates() throws {
    let dir = try TempDir("system")
    defer { dir.remove() }
    let deep = dir.file("a/b/c")
    try FileSystem.createDirectory(deep, intermediates: true)
    try FileSystem.createDirectory(deep, intermediates: true)
    #expect(try #require(try FileSystem.status(deep)).st_mode & S_IFMT == S_IFDIR)
    try AtomicFile.write("x", to: dir.file("file"))
    #expect(throws: SystemError.self) { try FileSystem.createDirectory(dir.file("file")) }
  }

  @Test func pathComponents() {
    #expect(FileSystem.directoryName("/etc/alarmclock/alarms.toml") == "/etc/alarmclock")
    #expect(FileSystem.directoryName("alarms.toml") == ".")
    #expect(FileSystem.directoryName("/alarms.toml") == "/")
    #expect(FileSystem.directoryName("a//b") == "a")
    #expect(FileSystem.baseName("/etc/alarmclock/alarms.toml") == "alarms.toml")
    #expect(FileSystem.baseName("dir/") == "dir")
  }

  @Test func environmentSnapshot() {
    let env = Environment.current()
    #expect(env["PATH"] != nil)
    var custom = Environment(["A": "1"])
    custom["B"] = "2"
    #expect(custom["A"] == "1" && custom["B"] == "2" && custom["C"] == nil)
  }
}
