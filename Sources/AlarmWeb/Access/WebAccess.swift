import AlarmClient
import AlarmCore

/// Who may use the web process: holders of the token (the token file's content).
///
/// The API takes `Authorization: Bearer TOKEN`. The page logs in with the same token and
/// gets a cookie `alarmclock_session=EXPIRY.MAC`, MAC = HMAC-SHA-256(token, "session EXPIRY"):
/// nothing is kept in memory, so a session outlives the process's idle exit, and a new
/// token logs every session out. The CSRF token of a session is
/// HMAC-SHA-256(token, "csrf SESSION"): a page request that changes something must carry it
/// (`X-CSRF-Token` header or `csrf` form field). Every comparison is constant-time.
public struct WebAccess: Sendable {
  /// The cookie's name.
  public static let cookieName = "alarmclock_session"
  /// How long a login lasts.
  public static let sessionLength: Duration = .seconds(30 * 24 * 3600)

  private let token: [UInt8]
  /// The token's digest, what a given token's digest is compared with.
  private let tokenDigest: [UInt8]

  /// Access for `token` (surrounding whitespace, such as the file's final newline, dropped).
  /// An empty token gives access to nobody: no token, session or CSRF token is accepted.
  public init(token: String) {
    self.token = Array(token.trimmingWhitespace.utf8)
    tokenDigest = SHA256.hash(self.token)
  }

  /// Access for nobody, until a usable token file is read again.
  public static let locked = WebAccess(token: "")

  /// True when nobody is let in (`locked`).
  public var isLocked: Bool { token.isEmpty }

  /// True when `given` is the token.
  public func isToken(_ given: String) -> Bool {
    guard !isLocked else { return false }
    return SHA256.constantTimeEqual(
      SHA256.hash(Array(given.trimmingWhitespace.utf8)), tokenDigest)
  }

  /// True when the request carries `Authorization: Bearer TOKEN`; nil when it carries no
  /// bearer credentials at all.
  public func bearer(_ request: WebRequest) -> Bool? {
    guard let value = request.header("authorization") else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
    return isToken(String(parts[1]))
  }

  /// A new session cookie value, valid until `now + sessionLength`.
  public func newSession(now: Instant) -> String {
    let expiry = String((now + Self.sessionLength).seconds)
    return expiry + "." + mac("session " + expiry)
  }

  /// The request's session, when it has a valid, unexpired one.
  public func session(_ request: WebRequest, now: Instant) -> String? {
    guard let value = request.cookies[Self.cookieName] else { return nil }
    let parts = value.split(separator: ".", maxSplits: 1)
    guard !isLocked, parts.count == 2, let expiry = Int64(parts[0]), expiry > now.seconds,
      SHA256.constantTimeEqual(Array(parts[1].utf8), Array(mac("session \(parts[0])").utf8))
    else { return nil }
    return value
  }

  /// The CSRF token of `session`.
  public func csrf(for session: String) -> String { mac("csrf " + session) }

  /// True when `given` is `session`'s CSRF token.
  public func isCSRF(_ given: String?, for session: String) -> Bool {
    guard let given, !isLocked else { return false }
    return SHA256.constantTimeEqual(Array(given.utf8), Array(csrf(for: session).utf8))
  }

  /// The `Set-Cookie` value that logs in with `session`.
  public static func setCookie(_ session: String) -> String {
    "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(sessionLength.components.seconds)"
  }

  /// The `Set-Cookie` value that logs out.
  public static let clearCookie = "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"

  private func mac(_ message: String) -> String {
    SHA256.hex(SHA256.hmac(key: token, message: Array(message.utf8)))
  }
}

/// Slows down guessing: each failed login (or wrong bearer token) in a row doubles the
/// delay of the next refusal, from 250 ms up to 8 s; a success resets it. Per process, and
/// the reply is delayed by a timer, so the loop keeps serving everyone else meanwhile.
public struct LoginThrottle: Sendable {
  public private(set) var failures = 0
  public static let first: Duration = .milliseconds(250)
  public static let longest: Duration = .seconds(8)

  public init() {}

  /// Records a failure; returns how long to hold its refusal back.
  public mutating func failed() -> Duration {
    failures = min(failures + 1, 16)
    var delay = Self.first
    for _ in 1..<failures where delay < Self.longest { delay *= 2 }
    return min(delay, Self.longest)
  }

  public mutating func succeeded() { failures = 0 }
}
