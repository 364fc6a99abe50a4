#if canImport(Glibc)
  import Glibc
#endif

/// A zeroed buffer of whole pages of its own, locked in RAM (`mlock`) when the system
/// allows it: the playback thread's sample buffers, so writing a period to ALSA never
/// waits for a page to come back from swap (a Pi with a swap file or zram).
///
/// Pages of its own, because `mlock` does not count: unlocking a page shared with another
/// allocation would unlock that one too. Locking needs RLIMIT_MEMLOCK room (8 MiB by
/// default, and the buffers are a few KiB); when it is refused the buffer works the same,
/// unlocked, and `pinError` says why.
public final class PinnedBuffer<Element: BitwiseCopyable> {
  /// The first of `count` elements, all zero at first.
  public let base: UnsafeMutablePointer<Element>
  public let count: Int
  /// Why the pages are not locked (nil: they are).
  public let pinError: SystemError?
  private let bytes: Int
  private let mapped: Bool

  /// `count` zeroed elements on pages of their own, locked when allowed.
  public init(count: Int) {
    let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
    let need = max(1, count) * MemoryLayout<Element>.stride
    bytes = (need + page - 1) / page * page
    self.count = count
    let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if let raw, raw != UnsafeMutableRawPointer(bitPattern: -1) {
      mapped = true
      base = raw.bindMemory(to: Element.self, capacity: bytes / MemoryLayout<Element>.stride)
      pinError = mlock(raw, bytes) == 0 ? nil : SystemError.current("mlock(\(bytes) bytes)")
    } else {
      // Out of address space: an ordinary allocation (which traps, like an Array's, only
      // when that fails too).
      mapped = false
      let memory = UnsafeMutableRawPointer.allocate(
        byteCount: bytes, alignment: MemoryLayout<Element>.alignment)
      memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
      base = memory.bindMemory(to: Element.self, capacity: bytes / MemoryLayout<Element>.stride)
      pinError = SystemError.current("mmap(\(bytes) bytes)")
    }
  }

  deinit {
    if mapped {
      munmap(base, bytes)  // unlocks too
    } else {
      UnsafeMutableRawPointer(base).deallocate()
    }
  }
}
