import CShim
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An owned file descriptor: the one owner closes it exactly once (on `close()` or deinit).
///
/// `close()` is idempotent and safe from any thread; after it `rawValue` is -1 and every
/// call fails with EBADF instead of touching a number the kernel may have reused.
/// Every descriptor this module opens has O_CLOEXEC, so hooks never inherit them.
public final class FileDescriptor: Sendable, CustomStringConvertible {
  private let fd: Atomic<Int32>

  /// Takes ownership of an open descriptor.
  public init(owning rawValue: Int32) { fd = Atomic(rawValue) }

  deinit { close() }

  /// The descriptor number, or -1 once closed. Do not close it yourself.
  public var rawValue: Int32 { fd.load(ordering: .acquiring) }

  public var isOpen: Bool { rawValue >= 0 }

  public var description: String { "fd \(rawValue)" }

  /// Closes the descriptor; later calls do nothing. Never retries: on Linux the descriptor
  /// is released even when close(2) reports EINTR.
  public func close() {
    let old = fd.exchange(-1, ordering: .acquiringAndReleasing)
    if old >= 0 { _ = Glibc.close(old) }
  }

  /// Opens `path`; O_CLOEXEC is always added.
  public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644)
    throws(SystemError) -> FileDescriptor
  {
    let fd = try retryingEINTR("open(\(path))") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    return FileDescriptor(owning: fd)
  }

  /// A pipe, both ends O_CLOEXEC.
  public static func pipe(nonBlocking: Bool = false)
    throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor)
  {
    var fds: [Int32] = [-1, -1]
    let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    try retryingEINTR("pipe2") { cshim_pipe2(&fds, flags) }
    return (FileDescriptor(owning: fds[0]), FileDescriptor(owning: fds[1]))
  }

  /// Reads at most `buffer.count` bytes; 0 means end of file. Throws EAGAIN
  /// (`isWouldBlock`) on an empty non-blocking descriptor.
  public func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    let fd = rawValue
    return try retryingEINTR("read(\(description))") {
      Glibc.read(fd, buffer.baseAddress, buffer.count)
    }
  }

  /// Reads at most `maxCount` bytes; an empty array means end of file.
  public func readSome(maxCount: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(1, maxCount))
    let fd = rawValue
    let n = try retryingEINTR("read(\(description))") {
      bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    }
    bytes.removeSubrange(n...)
    return bytes
  }

  /// Writes every byte, looping over short writes (for blocking descriptors).
  public func writeAll(_ bytes: some Collection<UInt8>) throws(SystemError) {
    try FileDescriptor.writeAll(bytes, toRaw: rawValue)
  }

  /// Writes every byte to a descriptor nobody here owns (stdout, stderr), looping over
  /// short writes: the one write loop for the whole program.
  public static func writeAll(_ bytes: some Collection<UInt8>, toRaw fd: Int32)
    throws(SystemError)
  {
    let array = Array(bytes)
    var done = 0
    while done < array.count {
      let n = try retryingEINTR("write(fd \(fd))") {
        array.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
      }
      // write(2) taking nothing from a non-empty buffer would loop forever.
      if n == 0 { throw SystemError("write(fd \(fd))", errno: EIO, detail: "wrote nothing") }
      done += n
    }
  }

  /// Writes the string's UTF-8 bytes.
  public func writeAll(_ text: String) throws(SystemError) { try writeAll(Array(text.utf8)) }

  /// Flushes data and metadata to stable storage.
  public func sync() throws(SystemError) {
    let fd = rawValue
    try retryingEINTR("fsync(\(description))") { fsync(fd) }
  }

  /// fstat(2).
  public func status() throws(SystemError) -> stat {
    var st = stat()
    let fd = rawValue
    try retryingEINTR("fstat(\(description))") { fstat(fd, &st) }
    return st
  }

  /// Sets or clears O_NONBLOCK.
  public func setNonBlocking(_ on: Bool = true) throws(SystemError) {
    let fd = rawValue
    let flags = try retryingEINTR("fcntl(\(description), F_GETFL)") { fcntl(fd, F_GETFL) }
    let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
    if wanted != flags {
      try retryingEINTR("fcntl(\(description), F_SETFL)") { fcntl(fd, F_SETFL, wanted) }
    }
  }
}
