import AlarmCore
import AlarmPlatform

/// The replies to reads that depend only on the config file's bytes, the service's state
/// file and the whole second of the wall clock (`GET /api/alarms`, `GET /api/next`), each
/// kept for the rest of its second. Not merely fresh but exact: every firing falls on a
/// whole second, so "the firings after now" are the same set for every instant of one
/// second; a changed config (its ETag) or state file (a new inode: it is replaced by
/// rename) is another key. Fifty phones asking at the same instant then cost one answer
/// and 49 copies (docs/performance.md, "web API reply").
struct SecondCache {
  /// What a reply is made from: the config's decoding (`WebApp`'s count of them), the state
  /// file (nil: none to read), and the route with its query.
  struct Key: Hashable {
    var decoding: Int
    var state: FileIdentity?
    var route: String
  }

  private var second = Int64.min
  private var replies: [Key: WebResponse] = [:]
  /// More keys than this in one second (many `count` values) are answered uncached.
  static let maxKeys = 32
  /// How many replies were made rather than kept (for tests).
  private(set) var made = 0

  /// The reply for `key` in the second of `now`, made by `make` the first time.
  mutating func reply(_ key: Key, now: Instant, _ make: () -> WebResponse) -> WebResponse {
    let s = now.seconds
    if s != second {
      second = s
      replies.removeAll(keepingCapacity: true)
    }
    if let kept = replies[key] { return kept }
    let reply = make()
    made += 1
    if reply.status == 200, replies.count < Self.maxKeys { replies[key] = reply }
    return reply
  }
}
