import CShim  // <malloc.h>: mallopt

#if canImport(Glibc)
  import Glibc
#endif

/// The heap of a one-shot command that reads a large config (`check`, `next`), set up
/// for speed rather than for footprint: one region reserved up front, in transparent huge
/// pages where the kernel offers them (`madvise` mode, Debian's default). Parsing and
/// decoding 10,000 alarms touch about 25 MiB of fresh heap: in 4 KiB pages that was
/// 5,500 page faults, a sixth of `check`'s time; in 2 MiB pages it is a few dozen
/// (docs/reliability.md, "Scale"). Not for the service, whose idle resident memory
/// matters more than its start (docs/performance.md, "Idle").
public enum OneShotHeap {
  /// Huge pages come in this size and alignment (x86-64 and arm64 with 4 KiB pages).
  static let hugePage = 2 << 20

  /// Grows the heap by `bytes` now and asks for huge pages on it. Afterwards every
  /// allocation comes from that heap: none is mapped on its own (an array of 10,000
  /// alarms was, and its pages were faulted in one by one, then unmapped when freed),
  /// and nothing is given back before exit. Best effort: without brk or THP it only
  /// changes where malloc takes its memory from.
  public static func prepare(bytes: Int = 64 << 20) {
    #if canImport(Glibc)
      // glibc's largest mmap threshold (32 MiB on 64-bit): larger blocks are still mapped.
      _ = mallopt(M_MMAP_THRESHOLD, Int32(32 << 20))
      _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
      _ = mallopt(M_TOP_PAD, Int32(clamping: bytes))
      // A block larger than the free top of the heap makes malloc extend the heap by the
      // block and the pad; the new space runs from the block to the break. Freed, the
      // block joins the top again, untouched but for two chunk headers.
      guard let block = malloc(16 << 20) else { return }
      defer { free(block) }
      guard let brk = sbrk(0) else { return }
      let start = (UInt(bitPattern: block) + UInt(hugePage) - 1) & ~UInt(hugePage - 1)
      let end = UInt(bitPattern: brk) & ~UInt(hugePage - 1)
      guard end > start, let region = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(region, Int(end - start), MADV_HUGEPAGE)
    #endif
  }
}
