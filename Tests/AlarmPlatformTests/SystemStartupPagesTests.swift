import Foundation
import Testing

@testable import AlarmPlatform

/// Set before the release and read after it: data pages must survive it.
nonisolated(unsafe) var startupPagesMarker = 0

@Suite struct SystemStartupPagesTests {
  @Test func releasesOnlyCleanExecutablePagesAndTheProcessKeepsRunning() throws {
    let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let before = StartupPages.mappings(try FileSystem.readText("/proc/self/smaps"))
      .filter { $0.path == exe }
    #expect(before.contains { !$0.writable && $0.residentKiB > 0 })
    let copied = before.filter { $0.anonymousKiB > 0 }
    #expect(!copied.isEmpty)  // relocated data: must be left alone
    startupPagesMarker = 4711

    let released = StartupPages.release(executable: exe)
    #expect(released > 0)
    let after = StartupPages.mappings(try FileSystem.readText("/proc/self/smaps"))
      .filter { $0.path == exe }
    for mapping in copied {
      let now = try #require(after.first { $0.start == mapping.start })
      #expect(now.anonymousKiB == mapping.anonymousKiB)
    }
    #expect(startupPagesMarker == 4711)
    // This test's own code was among the released pages: it ran on, faulted back in.
    #expect(after.contains { !$0.writable && $0.residentKiB > 0 })
  }

  @Test func parsesHeadersWithAndWithoutPaths() {
    let text = """
      5581c000-5582c000 r--p 00000000 fe:00 123   /usr/bin/alarm clock
      Rss:                  12 kB
      Anonymous:             0 kB
      7ffd1000-7ffd2000 rw-p 00000000 00:00 0
      Rss:                   4 kB
      Anonymous:             4 kB
      """
    let maps = StartupPages.mappings(text)
    #expect(maps.count == 2)
    #expect(maps[0].path == "/usr/bin/alarm clock" && !maps[0].writable)
    #expect(maps[0].start == 0x5581_c000 && maps[0].end == 0x5582_c000)
    #expect(maps[0].residentKiB == 12 && maps[0].anonymousKiB == 0)
    #expect(maps[1].path == "" && maps[1].writable && maps[1].anonymousKiB == 4)
  }
}
