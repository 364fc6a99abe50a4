import AlarmCore
import AlarmPlatform
import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// Where streams are fetched and decoded: never in this process. The helper
/// (`alarmclock-stream`) reads a `StreamWire` request and answers with PCM; this says how
/// to reach one.
public enum StreamHelper: Sendable, Equatable {
  /// A child per stream, connected by a socketpair (a terminal's `alarmclock run`,
  /// `alarmclock play`): `executable` is the helper's path.
  case spawn(executable: String)
  /// The socket-activated `alarmclock-stream.socket` (`Accept=yes`): each connection is
  /// one sandboxed helper, with the network the service's unit does not have.
  case socket(path: String)

  /// The helper installed beside the running executable (`/usr/bin/alarmclock-stream`
  /// next to `/usr/bin/alarmclock`; in a build folder, the one built with it).
  public static var besideExecutable: StreamHelper {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let exe =
      n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return .spawn(executable: (dir.isEmpty ? "." : dir) + "/alarmclock-stream")
  }

  /// Where the helper is, for logs and `status`.
  public var description: String {
    switch self {
    case .spawn(let executable): return executable
    case .socket(let path): return "socket \(path)"
    }
  }

  /// Opens one helper: the connection, and the child to reap when it is a child.
  func connect() throws(SystemError) -> StreamConnection {
    switch self {
    case .socket(let path):
      let fd = try FileDescriptor.unixSocket(Int32(SOCK_STREAM.rawValue))
      try fd.connect(to: UnixSocketAddress(path))
      return StreamConnection(fd: fd, child: nil)
    case .spawn(let executable):
      var pair: [Int32] = [-1, -1]
      try retryingEINTR("socketpair") {
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
      }
      let ours = FileDescriptor(owning: pair[0])
      let theirs = FileDescriptor(owning: pair[1])
      let pid = try ProcessSpawn.spawn(
        file: executable, argv: [executable], environment: Self.childEnvironment,
        stdin: theirs.rawValue, stdout: theirs.rawValue, stderr: nil)
      theirs.close()
      return StreamConnection(fd: ours, child: pid)
    }
  }

  /// What the child keeps of the environment: the locale, the proxy settings, which
  /// FFmpeg's HTTP client honours, and a private CA file for https.
  private static var childEnvironment: [String] {
    let keep = [
      "PATH", "LANG", "LC_ALL", "http_proxy", "https_proxy", "no_proxy", "HOME",
      "ALARMCLOCK_STREAM_CA_FILE",
    ]
    return keep.compactMap { name in getenv(name).map { "\(name)=\(String(cString: $0))" } }
  }
}

/// One helper's connection; closing it ends the helper (a child is killed and reaped).
final class StreamConnection {
  let fd: FileDescriptor
  private let child: pid_t?

  init(fd: FileDescriptor, child: pid_t?) {
    self.fd = fd
    self.child = child
  }

  /// Closes the socket; a child is killed at once (it holds nothing worth a clean exit)
  /// and reaped, so no zombie is left.
  func close() {
    fd.close()
    guard let child else { return }
    kill(-child, SIGKILL)
    var status: Int32 = 0
    _ = try? retryingEINTR("waitpid(\(child))") { waitpid(child, &status, 0) }
  }
}
