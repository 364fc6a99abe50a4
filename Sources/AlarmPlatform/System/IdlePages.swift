import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// Gives back the pages an idle service does not need: the clean file pages that start-up
/// or a ring left mapped (the executable's and the shared libraries' code and read-only
/// data, plus the neighbours the kernel's fault-around mapped with them) and the heap's
/// free pages. The file pages stay in the page cache: code that runs later (a ring
/// prepares 2 s ahead) faults back in from memory, not from the disk, unless the kernel
/// has reclaimed the cache under memory pressure. docs/performance.md has the figures.
public enum IdlePages {
  /// What `release` gave back, in KiB resident before it.
  public struct Released: Sendable, Equatable {
    /// The executable's clean mappings.
    public var executableKiB = 0
    /// The shared libraries' (and any other mapped file's) clean mappings.
    public var librariesKiB = 0
  }

  /// Releases (MADV_DONTNEED) each private file mapping that cannot hold a private copy:
  /// not writable and without anonymous pages, so that what comes back on the next touch
  /// is byte for byte what was there. Relocated data, .bss, devices' mappings and shared
  /// mappings are left alone. Then returns the heap's free pages (malloc_trim). Reads
  /// /proc/self/smaps; nothing is released when it cannot be read.
  @discardableResult
  public static func release(executable exe: String) -> Released {
    var released = Released()
    guard let smaps = try? FileSystem.readText("/proc/self/smaps") else { return released }
    let clean = mappings(smaps).filter(isReleasable)
    // The ranges first, then a tight loop: code run between two calls faults back in.
    for mapping in clean {
      let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
      if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
        if mapping.path == exe {
          released.executableKiB += mapping.residentKiB
        } else {
          released.librariesKiB += mapping.residentKiB
        }
      }
    }
    _ = malloc_trim(0)
    return released
  }

  /// A private mapping of a regular file, read-only, with resident pages none of which is
  /// a private copy. Device nodes (an ALSA PCM's status page) are never touched.
  static func isReleasable(_ mapping: Mapping) -> Bool {
    mapping.path.hasPrefix("/") && !mapping.path.hasPrefix("/dev/") && mapping.isPrivate
      && !mapping.writable && mapping.anonymousKiB == 0 && mapping.residentKiB > 0
  }

  struct Mapping {
    var start: UInt
    var end: UInt
    var writable: Bool
    var isPrivate: Bool
    var path: String
    var residentKiB = 0
    var anonymousKiB = 0
  }

  /// The mappings in /proc/PID/smaps text: a header line per mapping
  /// (`start-end perms offset dev inode [path]`), then `Key: value kB` lines.
  static func mappings(_ text: String) -> [Mapping] {
    var result: [Mapping] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
      guard let first = fields.first else { continue }
      if first.hasSuffix(":") {
        guard !result.isEmpty, fields.count >= 2, let kib = Int(fields[1]) else { continue }
        if first == "Rss:" { result[result.count - 1].residentKiB = kib }
        if first == "Anonymous:" { result[result.count - 1].anonymousKiB = kib }
        continue
      }
      let range = first.split(separator: "-")
      guard range.count == 2, fields.count >= 5,
        let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16)
      else { continue }
      let path = fields.count > 5 ? fields[5].drop { $0 == " " } : ""
      result.append(
        Mapping(
          start: start, end: end, writable: fields[1].contains("w"),
          isPrivate: fields[1].hasSuffix("p"), path: String(path)))
    }
    return result
  }
}
