import AlarmPlatform
import CMicroHTTPD

#if canImport(Glibc)
  import Glibc
#endif

/// The token file: read it, or create it with a random secret (mode 0600).
public enum TokenFile {
  /// The shortest token taken: guessing 16 characters at the login throttle's pace is out
  /// of reach; a shorter one is refused rather than used silently.
  public static let minimumLength = 16

  /// Reads the token at `path`; when there is no file, writes a new random one. `created`
  /// tells the caller to print the login URL. A file that every user may read, or a token
  /// shorter than `minimumLength`, is refused with the fix in the message.
  public static func load(_ path: String) throws(SystemError) -> (token: String, created: Bool) {
    if let st = try FileSystem.status(path) {
      let mode = st.st_mode & 0o777
      guard mode & 0o006 == 0 else {
        throw SystemError(
          "open(\(path))", errno: EACCES,
          detail: "the token file is readable or writable by every user (mode "
            + "\(String(mode, radix: 8))); make it private with 'chmod 600 \(path)'")
      }
      let text = try FileSystem.readText(path, limit: 4096)
      let token = String(Substring(text).trimmingBlanksAndNewlines)
      guard !token.isEmpty else {
        throw SystemError("read(\(path))", errno: EINVAL, detail: "the token file is empty")
      }
      guard token.count >= minimumLength else {
        throw SystemError(
          "read(\(path))", errno: EINVAL,
          detail: "the token is \(token.count) characters, fewer than \(minimumLength); write a "
            + "longer one, or remove the file and a random one of 64 is made")
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
