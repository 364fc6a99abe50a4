#if canImport(Glibc)
  import Glibc
#endif
import CShim

/// A listening Unix stream socket at a filesystem path.
///
/// A socket file left behind by a dead process is replaced; a live one (something accepts
/// connections) or a non-socket file at the path is an error, never removed.
public final class UnixListener {
  public let path: String
  /// The listening descriptor (non-blocking, close-on-exec).
  public let descriptor: FileDescriptor
  private var identity: (dev: UInt64, ino: UInt64)?

  /// Binds and listens at `path` with the given file mode (0660: the owner and the
  /// socket's group may connect). `createParentDirectory` makes missing parents (0755).
  public init(
    path: String, mode: mode_t = 0o660, createParentDirectory: Bool = false, backlog: Int32 = 128
  ) throws(SystemError) {
    self.path = path
    let address = try UnixSocketAddress(path)
    if createParentDirectory {
      try FileSystem.createDirectory(
        FileSystem.directoryName(path), mode: 0o755, intermediates: true)
    }
    try UnixListener.removeStaleSocket(at: path, address: address)
    descriptor = try FileDescriptor.unixSocket(SOCK_STREAM_VALUE, nonBlocking: true)
    try descriptor.bind(to: address)
    do throws(SystemError) {
      // Connecting needs write permission on the socket file; bind used the umask.
      try retryingEINTR("chmod(\(path), \(String(mode, radix: 8)))") { chmod(path, mode) }
      let fd = descriptor.rawValue
      try retryingEINTR("listen(\(path))") { listen(fd, backlog) }
      if let st = try FileSystem.status(path) {
        identity = (UInt64(st.st_dev), UInt64(st.st_ino))
      }
    } catch {
      descriptor.close()
      try? FileSystem.remove(path)
      throw error
    }
  }

  deinit { close() }

  /// Accepts one pending connection (non-blocking, close-on-exec); nil when none is pending.
  public func accept() throws(SystemError) -> FileDescriptor? {
    let fd = descriptor.rawValue
    let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    do throws(SystemError) {
      let client = try retryingEINTR("accept4(\(path))") { cshim_accept4(fd, flags) }
      return FileDescriptor(owning: client)
    } catch where error.isWouldBlock || error.errno == ECONNABORTED {
      return nil
    }
  }

  /// Stops listening and removes the socket file if it is still ours. Idempotent.
  public func close() {
    guard descriptor.isOpen else { return }
    descriptor.close()
    if let identity, let st = try? FileSystem.status(path),
      UInt64(st.st_dev) == identity.dev, UInt64(st.st_ino) == identity.ino
    {
      try? FileSystem.remove(path)
    }
  }

  private static func removeStaleSocket(at path: String, address: UnixSocketAddress)
    throws(SystemError)
  {
    guard let st = try FileSystem.status(path) else { return }
    guard (st.st_mode & S_IFMT) == S_IFSOCK else {
      throw SystemError(
        "bind(\(path))", errno: EEXIST, detail: "a file that is not a socket is in the way")
    }
    let probe = try FileDescriptor.unixSocket(SOCK_STREAM_VALUE)
    defer { probe.close() }
    do throws(SystemError) {
      try probe.connect(to: address)
    } catch where error.errno == ECONNREFUSED {
      try FileSystem.remove(path)  // Nobody listens: left over from a process that died.
      return
    }
    throw SystemError(
      "bind(\(path))", errno: EADDRINUSE, detail: "another process is listening on it")
  }
}
