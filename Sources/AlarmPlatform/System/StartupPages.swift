#if canImport(Glibc)
  import Glibc
#endif

/// Unmaps the executable's pages that start-up left mapped (argument and config parsing,
/// the Swift runtime's first metadata look-ups, and the neighbours that the kernel's
/// fault-around mapped with them), so that the idle service's resident set holds only
/// what it touches again. The pages stay in the page cache: code that runs later (a ring
/// prepares 2 s ahead) faults back in from memory, not from the disk, unless the kernel
/// has reclaimed the cache under memory pressure. docs/performance.md has the figures.
public enum StartupPages {
  /// Releases (MADV_DONTNEED) each mapping of `executable` (the path /proc/self/exe
  /// names) that cannot hold a private copy: not writable and without anonymous pages, so
  /// that what comes back on the next touch is byte for byte what was there. Relocated
  /// data and .bss are left alone. Returns the KiB that were resident in the released
  /// mappings (0 when /proc/self/smaps cannot be read).
  @discardableResult
  public static func release(executable exe: String) -> Int {
    guard let smaps = try? FileSystem.readText("/proc/self/smaps") else { return 0 }
    let clean = mappings(smaps).filter {
      $0.path == exe && !$0.writable && $0.anonymousKiB == 0 && $0.residentKiB > 0
    }
    // The ranges first, then a tight loop: code run between two calls faults back in.
    var released = 0
    for mapping in clean {
      let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
      if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
        released += mapping.residentKiB
      }
    }
    return released
  }

  struct Mapping {
    var start: UInt
    var end: UInt
    var writable: Bool
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
        Mapping(start: start, end: end, writable: fields[1].contains("w"), path: String(path)))
    }
    return result
  }
}
