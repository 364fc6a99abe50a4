#if canImport(Glibc)
  import Glibc
#endif

/// A value guarded by a pthread mutex: what the service's threads share (the ringer's
/// control block, the event loop's inbox, the logger's line order).
///
/// Not `Synchronization.Mutex`: in Swift 6.0.3 (Debian trixie's `swiftlang`, the
/// toolchain of the arm64 package) its Linux implementation traps on aarch64 ("Call to
/// unlock Mutex on a thread which hasn't acquired the lock", "Unknown error occured while
/// attempting to acquire a Mutex"), seen in the arm64 boot tier. A default pthread mutex
/// has no owner check to get wrong and is what glibc's own threads use.
public final class Locked<Value>: @unchecked Sendable {
  // Heap-allocated: a pthread_mutex_t must not move while in use.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock around `value`.
  public init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // With default attributes pthread_mutex_init cannot fail on Linux.
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock.
  public func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
