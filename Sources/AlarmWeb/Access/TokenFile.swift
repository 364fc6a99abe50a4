import AlarmPlatform
import CMicroHTTPD

#if canImport(Glibc)
  import Glibc
#endif

/// The token file: read it, or create it with a random secret (mode 0600).
public enum TokenFile {
  /// Reads the token at `path`; when there is no file, writes a new random one. `created`
  /// tells the caller to print the login URL.
  public static func load(_ path: String) throws(SystemError) -> (token: String, created: Bool) {
    if FileSystem.exists(path) {
      let text = try FileSystem.readText(path, limit: 4096)
      let token = String(Substring(text).trimmingBlanksAndNewlines)
      guard !token.isEmpty else {
        throw SystemError("read(\(path))", errno: EINVAL, detail: "the token file is empty")
      }
      return (token, false)
    }
    let token = try randomToken()
    let fd = try retryingEINTR("open(\(path))") {
      Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    }
    let file = FileDescriptor(owning: fd)
    try file.writeAll(token + "\n")
    try file.sync()
    return (token, true)
  }

  /// 32 random bytes from getrandom(2), as 64 hex digits.
  public static func randomToken() throws(SystemError) -> String {
    var bytes = [UInt8](repeating: 0, count: 32)
    var filled = 0
    while filled < bytes.count {
      let n = try retryingEINTR("getrandom") {
        bytes.withUnsafeMutableBytes { getrandom($0.baseAddress! + filled, $0.count - filled, 0) }
      }
      filled += n
    }
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }
}
