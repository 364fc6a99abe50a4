import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP server inside our `EventLoop`: libmicrohttpd's epoll descriptor is a `.client`
/// source (so no HTTP traffic can delay an urgent source), a monotonic timer wakes it for
/// its connection timeouts, and delayed replies wait on timers of their own.
public final class WebServer {
  private let loop: EventLoop
  private let http: MicroHTTPD
  private let epoll: FileDescriptor
  private let timer: TimerFd
  private var delayed: [ObjectIdentifier: (TimerFd, OpaquePointer)] = [:]
  /// The last time a request started (CLOCK_MONOTONIC), for the idle exit.
  public private(set) var lastActivity: Duration

  /// Serves `respond` on `listenFD` (taken over) in `loop`.
  public init(
    loop: EventLoop, listenFD: Int32, limits: WebLimits = WebLimits(),
    respond: @escaping (WebRequest) -> WebResponse
  ) throws(SystemError) {
    self.loop = loop
    http = try MicroHTTPD(listenFD: listenFD, limits: limits, respond: respond)
    // Not owned by us: a duplicate keeps FileDescriptor's close-once rule for our copy.
    let mhdEpoll = http.epollDescriptor
    let dupFD = try retryingEINTR("fcntl(F_DUPFD_CLOEXEC)") {
      fcntl(mhdEpoll, F_DUPFD_CLOEXEC, 3)
    }
    epoll = FileDescriptor(owning: dupFD)
    timer = try TimerFd(clock: .monotonic)
    lastActivity = Clock.monotonic.now()
    http.onActivity = { [unowned self] in lastActivity = Clock.monotonic.now() }
    http.onDelayed = { [unowned self] connection, delay in hold(connection, for: delay) }
    try loop.register(epoll, interest: .readable, priority: .client) { [unowned self] _ in
      serve()
    }
    try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
      _ = try? timer.read()
      serve()
    }
    serve()
  }

  /// Requests being answered (open exchanges), for the idle exit.
  public var busy: Bool { http.openRequests > 0 }

  /// Stops listening and closes every connection.
  public func stop() {
    loop.unregister(epoll)
    loop.unregister(timer.descriptor)
    for (t, _) in delayed.values { loop.unregister(t.descriptor) }
    delayed = [:]
    http.stop()
  }

  private func serve() {
    http.run()
    if let timeout = http.timeout {
      try? timer.arm(after: max(timeout, .milliseconds(1)))
    } else {
      try? timer.disarm()
    }
  }

  private func hold(_ connection: OpaquePointer, for delay: Duration) {
    guard let t = try? TimerFd(clock: .monotonic) else {
      http.resume(connection)
      return
    }
    let key = ObjectIdentifier(t)
    delayed[key] = (t, connection)
    do {
      try t.arm(after: delay)
      try loop.register(t.descriptor, interest: .readable) { [unowned self] _ in
        guard let (t, connection) = delayed.removeValue(forKey: key) else { return }
        loop.unregister(t.descriptor)
        http.resume(connection)
        serve()
      }
    } catch {
      delayed[key] = nil
      http.resume(connection)
    }
  }
}
