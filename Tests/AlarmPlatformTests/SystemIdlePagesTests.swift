import Foundation
import Testing

@testable import AlarmPlatform

/// Set before the release and read after it: data pages must survive it.
nonisolated(unsafe) var idlePagesMarker = 0

@Suite struct SystemIdlePagesTests {
  @Test func releasesOnlyCleanFilePagesAndTheProcessKeepsRunning() throws {
    let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let before = IdlePages.mappings(try FileSystem.readText("/proc/self/smaps"))
      .filter { $0.path == exe }
    #expect(before.contains { !$0.writable && $0.residentKiB > 0 })
    let copied = before.filter { $0.anonymousKiB > 0 }
    #expect(!copied.isEmpty)  // relocated data: must be left alone
    idlePagesMarker = 4711

    let released = IdlePages.release(executable: exe)
    #expect(released.executableKiB > 0)
    #expect(released.librariesKiB > 0)  // libc's code, at least
    let after = IdlePages.mappings(try FileSystem.readText("/proc/self/smaps"))
      .filter { $0.path == exe }
    for mapping in copied {
      let now = try #require(after.first { $0.start == mapping.start })
      // Never fewer (tests alongside may write more of it meanwhile).
      #expect(now.anonymousKiB >= mapping.anonymousKiB)
    }
    #expect(idlePagesMarker == 4711)
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
    let maps = IdlePages.mappings(text)
    #expect(maps.count == 2)
    #expect(maps[0].path == "/usr/bin/alarm clock" && !maps[0].writable && maps[0].isPrivate)
    #expect(maps[0].start == 0x5581_c000 && maps[0].end == 0x5582_c000)
    #expect(maps[0].residentKiB == 12 && maps[0].anonymousKiB == 0)
    #expect(maps[1].path == "" && maps[1].writable && maps[1].anonymousKiB == 4)
  }

  @Test func onlyPrivateReadOnlyFileMappingsWithoutCopiesAreReleasable() {
    let text = """
      1000-2000 r-xp 00000000 fe:00 1   /usr/lib/x86_64-linux-gnu/libasound.so.2.0.0
      Rss:                  8 kB
      Anonymous:            0 kB
      2000-3000 r--p 00000000 fe:00 1   /usr/lib/x86_64-linux-gnu/libasound.so.2.0.0
      Rss:                  4 kB
      Anonymous:            4 kB
      3000-4000 rw-p 00000000 fe:00 1   /usr/lib/x86_64-linux-gnu/libasound.so.2.0.0
      Rss:                  4 kB
      Anonymous:            0 kB
      4000-5000 r--s 00000000 00:05 9   /dev/snd/pcmC0D0p
      Rss:                  4 kB
      Anonymous:            0 kB
      5000-6000 r--p 00000000 00:05 9   /dev/snd/pcmC0D0p
      Rss:                  4 kB
      Anonymous:            0 kB
      6000-7000 r--s 00000000 fe:00 2   /var/cache/shared.db
      Rss:                  4 kB
      Anonymous:            0 kB
      7000-8000 r-xp 00000000 00:00 0   [vdso]
      Rss:                  4 kB
      Anonymous:            0 kB
      8000-9000 r--p 00000000 fe:00 3   /usr/lib/locale/C.utf8/LC_CTYPE
      Rss:                  0 kB
      Anonymous:            0 kB
      """
    let releasable = IdlePages.mappings(text).map(IdlePages.isReleasable)
    #expect(releasable == [true, false, false, false, false, false, false, false])
  }
}
