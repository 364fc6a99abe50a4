import AlarmCore
import AlarmPlatform
import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// The token file: read it, or create it with a random secret (mode 0600).
public enum TokenFile {
  /// The shortest token taken: guessing 16 characters at the login throttle's pace is out
  /// of reach; a shorter one is refused rather than used silently.
  public static let minimumLength = 16

  /// Reads the token at `path`; when there is no file, writes a new random one. `created`
  /// tells the caller to print the login URL. A file that anyone but its owner may read or
  /// write (its group too: members of `alarmclock` may stop a ring, not edit alarms), or a
  /// token shorter than `minimumLength`, is refused with the fix in the message.
  public static func load(_ path: String) throws(SystemError) -> (token: String, created: Bool) {
    if try FileSystem.status(path) != nil { return (try read(path), false) }
    let token = try randomToken()
    let fd = try retryingEINTR("open(\(path))") {
      Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    }
    let file = FileDescriptor(owning: fd)
    try file.writeAll(token + "\n")
    try file.sync()
    return (token, true)
  }

  /// Reads and checks the token of an existing file (`load`'s rules).
  public static func read(_ path: String) throws(SystemError) -> String {
    var st = stat()
    try retryingEINTR("stat(\(path))") { stat(path, &st) }
    let mode = st.st_mode & 0o777
    guard mode & 0o077 == 0 else {
      throw SystemError(
        "open(\(path))", errno: EACCES,
        detail: "the token file is readable or writable by others than its owner (mode "
          + "\(String(mode, radix: 8))); make it private with 'chmod 600 \(path)'")
    }
    let text = try FileSystem.readText(path, limit: 4096)
    let token = String(text.trimmingWhitespace)
    guard !token.isEmpty else {
      throw SystemError("read(\(path))", errno: EINVAL, detail: "the token file is empty")
    }
    guard token.count >= minimumLength else {
      throw SystemError(
        "read(\(path))", errno: EINVAL,
        detail: "the token is \(token.count) characters, fewer than \(minimumLength); write a "
          + "longer one, or remove the file and a random one of 64 is made")
    }
    return token
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

/// The token file as last read. `refresh()` reads it again when it changed (another
/// inode, size or modification time: an editor's save, `mv`, `echo >`), so a new token
/// works at once and every login made with the old one ends. A file that became unusable
/// (removed, readable by others, too short) locks everyone out until it is fixed, rather
/// than keep a token its owner may have meant to revoke.
final class TokenWatch {
  let path: String
  private var identity: FileIdentity?
  /// The access the file gives now.
  private(set) var access: WebAccess

  init(path: String, access: WebAccess) {
    self.path = path
    self.access = access
    identity = FileIdentity(path)
  }

  /// Reads the file again if it changed; what happened, for the log, or nil when it did not.
  func refresh() -> String? {
    let now = FileIdentity(path)
    guard now != identity else { return nil }
    identity = now
    do throws(SystemError) {
      access = WebAccess(token: try TokenFile.read(path))
      return "\(path) changed: the new token is in use; logins made with the old one ended"
    } catch {
      access = .locked
      return
        "\(path) changed and is unusable (\(error)); every request is refused until it is fixed"
    }
  }
}
