import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform

/// What the web process works on: the config file, the service's socket and state.
public struct WebSetup: Sendable {
  public var configPath: String
  /// The control socket of the running service.
  public var socketPath: String
  /// Where the service's state file is (for one-offs that are done); nil: the config's.
  public var stateDir: String?
  /// The environment (time zone) the config is read in.
  public var environment: [String: String]
  /// The wall clock (tests set it).
  public var now: @Sendable () -> Instant
  /// How long to wait for the service's reply.
  public var serviceTimeout: Duration = .seconds(3)

  public init(
    configPath: String, socketPath: String, stateDir: String? = nil,
    environment: [String: String], now: @escaping @Sendable () -> Instant = currentInstant
  ) {
    self.configPath = configPath
    self.socketPath = socketPath
    self.stateDir = stateDir
    self.environment = environment
    self.now = now
  }
}

/// The handlers of `alarmclock web`: `respond` maps a request to a reply with no sockets
/// involved. Routes: the JSON API under `/api/` and the page (docs/http.md).
public final class WebApp {
  public let setup: WebSetup
  private let fixedAccess: WebAccess
  private let tokenWatch: TokenWatch?
  var throttle = LoginThrottle()
  let store: ConfigStore
  /// The reminder list beside the config.
  let reminders: ReminderStore
  /// Told when the token file changed (a line for the log).
  public var onTokenChange: ((String) -> Void)?

  /// Serves with `access`; with `tokenFile`, the access of that file, read again whenever
  /// it changes (`TokenWatch`).
  public init(setup: WebSetup, access: WebAccess, tokenFile: String? = nil) {
    self.setup = setup
    fixedAccess = access
    tokenWatch = tokenFile.map { TokenWatch(path: $0, access: access) }
    store = ConfigStore(path: setup.configPath, environment: setup.environment)
    reminders = ReminderStore(configPath: setup.configPath)
  }

  /// Who may use the process now.
  var access: WebAccess { tokenWatch?.access ?? fixedAccess }

  /// The last decoded config and when it was decoded (CLOCK_MONOTONIC).
  private var cache: (view: WebConfigView, at: Duration)?
  /// How long a decoded config is reused while the file's bytes are the same: the
  /// `skip_calendars` files it read may change on their own.
  static let cacheAge: Duration = .seconds(2)

  /// The config as this request sees it: the file is read every time (its ETag), decoded
  /// again only when its bytes changed or the cached decoding is older than `cacheAge`.
  func configView() -> WebConfigView {
    let now = Clock.monotonic.now()
    let fresh = cache.flatMap { now - $0.at < Self.cacheAge ? $0.view : nil }
    // A settled file whose identity is unchanged has the bytes that were hashed: neither
    // read nor hashed again (the hash was a quarter of a request's work).
    let identity = FileIdentity(store.path)
    if let fresh, let identity, identity == settled { return fresh }
    // The file clock is the real one, whatever clock the schedule is computed with.
    let readAt = currentInstant()
    let view = WebConfigView(store, cached: fresh)
    settled = identity.flatMap {
      $0.settled(readAtSeconds: readAt.seconds) && !view.etag.isEmpty ? $0 : nil
    }
    if view.etag != fresh?.etag || fresh == nil {
      cache = (view, now)
      decodings &+= 1
    }
    return view
  }

  /// The config file's identity when the cached view was read from it and it had settled
  /// (`FileIdentity.settled`); nil otherwise.
  private var settled: FileIdentity?

  /// Counts the config's decodings: a reply made from one is not one of another's (the
  /// same bytes decoded again may have read changed calendar files).
  private var decodings = 0
  /// See `SecondCache`.
  private(set) var replies = SecondCache()

  /// The reply to a read of `route` (with its query) made from `view`, or the one made
  /// from the same decoding and state file earlier in this second.
  func cachedRead(
    _ route: String, _ view: WebConfigView, _ config: Config, _ make: () -> WebResponse
  ) -> WebResponse {
    let state = FileIdentity(AlarmListing.stateFile(config, stateDir: setup.stateDir))
    return replies.reply(
      SecondCache.Key(decoding: decodings, state: state, route: route), now: setup.now(), make)
  }

  /// The service's last status reply and when it came (CLOCK_MONOTONIC).
  private var statusCache: (reply: ReplyPayload, at: Duration)?
  /// How long a status reply is reused. Many clients polling the page or the API then
  /// cost the service at most a few status requests a second: measured with bench/web-fire,
  /// 1,500 status requests a second from 50 web clients took enough of the service's CPU
  /// to delay a ring's first frame by tens of milliseconds on two busy cores.
  static let statusAge: Duration = .milliseconds(250)

  /// `status` from the service, or a reply at most `statusAge` old; a change the web
  /// process makes (snooze, stop, skip, ring) drops the saved one.
  func serviceStatus() -> Result<ReplyPayload, ClientError> {
    let now = Clock.monotonic.now()
    if let cached = statusCache, now - cached.at < Self.statusAge { return .success(cached.reply) }
    let result = ServiceRequests.send(
      .status, socket: setup.socketPath, timeout: setup.serviceTimeout)
    if case .success(let reply) = result { statusCache = (reply, now) } else { statusCache = nil }
    return result
  }

  /// Forgets the saved status (after a request that changes what the service does).
  func statusChanged() { statusCache = nil }

  /// Answers one request; every reply carries the headers that keep it out of caches
  /// and frames.
  public func respond(_ request: WebRequest) -> WebResponse {
    var response: WebResponse
    if let change = tokenWatch?.refresh() { onTokenChange?(change) }
    // Anything but a read may change what the service reports.
    if request.method != "GET" && request.method != "HEAD" { statusChanged() }
    if request.path == "/api" || request.path.hasPrefix("/api/") {
      response = api(request)
    } else {
      response = page(request)
    }
    response.headers += WebResponse.safetyHeaders
    if response.header("content-type")?.hasPrefix("text/html") == true {
      response.headers.append(
        (
          "Content-Security-Policy",
          "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
            + "frame-ancestors 'none'"
        ))
    }
    return response
  }

  /// How the request proved who it is.
  enum Caller {
    /// A bearer token (scripts, Home Assistant): no CSRF token needed.
    case bearer
    /// The page's cookie; the session's CSRF token guards changes.
    case session(String)
  }

  /// Who sent a request, or the reply that refuses it.
  enum Authentication {
    case caller(Caller)
    case refused(WebResponse)
  }

  /// The caller, or the 401 reply (delayed after a wrong token).
  func authenticate(_ request: WebRequest) -> Authentication {
    switch access.bearer(request) {
    case true?:
      throttle.succeeded()
      return .caller(.bearer)
    case false?:
      var r = unauthorized("the bearer token is not the one in the token file")
      r.delay = throttle.failed()
      return .refused(r)
    case nil:
      if let session = access.session(request, now: setup.now()) {
        return .caller(.session(session))
      }
      return .refused(
        unauthorized("send Authorization: Bearer TOKEN (TOKEN: the content of the token file)"))
    }
  }

  private func unauthorized(_ message: String) -> WebResponse {
    var r = WebResponse.error(401, "unauthorized", message)
    r.headers.append(("WWW-Authenticate", "Bearer realm=\"alarmclock\""))
    return r
  }

  /// The HTTP status for a client failure.
  static func status(_ error: ClientError) -> Int {
    switch error.kind {
    case .invalidValue: return 400
    case .unknownAlarm, .unknownReminder: return 404
    case .changed, .configInvalid, .remindersInvalid: return 409
    case .io: return 500
    case .notRunning: return 503
    case .badReply: return 502
    case .service(let code):
      switch code {
      case .unknownAlarm: return 404
      case .badJSON, .badRequest, .unknownCommand, .lineTooLong: return 400
      case .internal: return 500
      default: return 409
      }
    }
  }

  /// A failure as the API's JSON error.
  static func failure(_ error: ClientError) -> WebResponse {
    .error(status(error), error.code, error.message, details: error.details)
  }
}
