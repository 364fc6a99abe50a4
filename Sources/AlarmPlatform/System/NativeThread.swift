#if canImport(Glibc)
  import Glibc
#endif

/// A joinable POSIX thread for work that blocks in poll(2) (the playback loop, a stream's
/// reader): no Dispatch queue, so its priority and lifetime are the caller's to decide.
public enum NativeThread {
  /// Starts `body` on a new thread; the caller joins it (`pthread_join`).
  /// - Throws: when the thread cannot be created (out of resources); `name` names it.
  public static func start(_ name: String, _ body: @escaping () -> Void) throws(SystemError)
    -> pthread_t
  {
    final class Box {
      let body: () -> Void
      init(_ b: @escaping () -> Void) { body = b }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var tid = pthread_t()
    let rc = pthread_create(
      &tid, nil,
      { arg in
        // swift-format-ignore: pthread always passes the context given below
        Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue().body()
        return nil
      }, box)
    if rc != 0 {
      Unmanaged<Box>.fromOpaque(box).release()
      throw SystemError("pthread_create(\(name))", errno: rc)
    }
    return tid
  }
}
