import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP server inside our `EventLoop`. It accepts on the listening socket itself and
/// hands each connection to libmicrohttpd (which never sees the listening socket, so it
/// cannot stop accepting: issue 28), after the slot policy (`WebSlots`) made room for it.
/// libmicrohttpd's epoll descriptor and the listening socket are `.client` sources (so
/// no HTTP traffic can delay an urgent source); one monotonic timer wakes the server for
/// libmicrohttpd's timeouts and the policy's deadlines, and delayed replies wait on timers
/// of their own.
public final class WebServer {
  private let loop: EventLoop
  private let http: MicroHTTPD
  private let listener: FileDescriptor
  private let epoll: FileDescriptor
  private let timer: TimerFd
  private var slots: WebSlots<OpaquePointer>
  /// The socket of each open connection (libmicrohttpd owns it; we only shut it down).
  private var sockets: [OpaquePointer: Int32] = [:]
  /// The address of each accepted socket until libmicrohttpd reports it started.
  private var accepted: [Int32: WebPeer] = [:]
  private var delayed: [OpaquePointer: TimerFd] = [:]
  /// Accepting pauses until then after running out of descriptors or memory.
  private var acceptPausedUntil: Duration?
  /// The last time a request started (CLOCK_MONOTONIC), for the idle exit.
  public private(set) var lastActivity: Duration
  /// Why the server stopped its loop: its timer or listener could not be set, so it could
  /// no longer time connections out or accept (the process exits; systemd's socket starts
  /// a new one at the next connection).
  public private(set) var failure: SystemError?

  /// Serves `respond` on `listenFD` (a listening socket, taken over) in `loop`.
  public init(
    loop: EventLoop, listenFD: Int32, limits: WebLimits = WebLimits(),
    bodyLimit: ((WebRequest) -> Int)? = nil, respond: @escaping (WebRequest) -> WebResponse
  ) throws(SystemError) {
    self.loop = loop
    listener = FileDescriptor(owning: listenFD)
    let flags = fcntl(listenFD, F_GETFL)
    _ = fcntl(listenFD, F_SETFL, flags | O_NONBLOCK)
    slots = WebSlots(limits: limits)
    http = try MicroHTTPD(limits: limits, respond: respond)
    http.bodyLimit = bodyLimit
    // Not owned by us: a duplicate keeps FileDescriptor's close-once rule for our copy.
    let mhdEpoll = http.epollDescriptor
    let dupFD = try retryingEINTR("fcntl(F_DUPFD_CLOEXEC)") {
      fcntl(mhdEpoll, F_DUPFD_CLOEXEC, 3)
    }
    epoll = FileDescriptor(owning: dupFD)
    timer = try TimerFd(clock: .monotonic)
    lastActivity = Clock.monotonic.now()
    http.onRequest = { [unowned self] c in
      lastActivity = Clock.monotonic.now()
      slots.requestStarted(c, now: lastActivity)
    }
    http.onRefused = { [unowned self] c in slots.requestRefused(c) }
    http.onCompleted = { [unowned self] c in slots.requestCompleted(c, now: Clock.monotonic.now()) }
    http.onOpened = { [unowned self] c, fd in
      sockets[c] = fd
      let peer = accepted.removeValue(forKey: fd) ?? WebPeer([])
      slots.opened(c, peer: peer, now: Clock.monotonic.now())
    }
    http.onClosed = { [unowned self] c in
      sockets[c] = nil
      slots.closed(c)
      if let t = delayed.removeValue(forKey: c) { loop.unregister(t.descriptor) }
    }
    http.onDelayed = { [unowned self] connection, delay in hold(connection, for: delay) }
    try loop.register(listener, interest: .readable, priority: .client) { [unowned self] _ in
      acceptAll()
    }
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

  /// Open connections (for tests and the log).
  public var connections: Int { slots.count }

  /// Stops listening and closes every connection.
  public func stop() {
    loop.unregister(listener)
    loop.unregister(epoll)
    loop.unregister(timer.descriptor)
    for t in delayed.values { loop.unregister(t.descriptor) }
    delayed = [:]
    http.stop()
  }

  /// Accepts what waits in the listen queue (a bounded batch per turn), each after the
  /// slot policy made room for it.
  private func acceptAll() {
    for _ in 0..<64 {
      var sa = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let fd = withUnsafeMutablePointer(to: &sa) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          // accept(2), not accept4: glibc declares accept4 only under _GNU_SOURCE. The
          // web process runs no child processes, so close-on-exec set just after is fine.
          Glibc.accept(listener.rawValue, $0, &length)
        }
      }
      if fd < 0 {
        switch errno {
        case EINTR, ECONNABORTED, EPROTO: continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors: make room, and stop accepting for a moment (the listening
          // socket stays readable, and a level-triggered loop would spin on it).
          drop(slots.makeRoom(for: WebPeer([0xff])))
          pauseAccepting()
        default: break
        }
        break
      }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      let peer = Self.peer(sa)
      drop(slots.makeRoom(for: peer))
      accepted[fd] = peer
      let ok = withUnsafePointer(to: &sa) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          http.add(fd, address: $0, length: length)
        }
      }
      accepted[fd] = nil
      if !ok { break }
      // Its request (usually in by now) is read and answered before the next accept,
      // so the policy knows who was refused when the next newcomer needs room.
      http.run()
    }
    serve()
  }

  private func pauseAccepting() {
    acceptPausedUntil = Clock.monotonic.now() + .milliseconds(100)
    do throws(SystemError) { try loop.modify(listener, interest: []) } catch { fail(error) }
  }

  /// Closes connections the policy gave up: a held reply is let go first, then the socket
  /// is shut down (libmicrohttpd sees the end on its next run and frees it).
  private func drop(_ connections: [OpaquePointer]) {
    for c in connections {
      if let t = delayed.removeValue(forKey: c) {
        loop.unregister(t.descriptor)
        http.resume(c)
      }
      if let fd = sockets[c] { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }

  private func serve() {
    let now = Clock.monotonic.now()
    if let until = acceptPausedUntil, until <= now {
      acceptPausedUntil = nil
      do throws(SystemError) { try loop.modify(listener, interest: .readable) } catch {
        fail(error)
      }
    }
    let expired = slots.expired(now: now)
    drop(expired)
    http.run()
    var next = slots.nextDeadline
    if let t = http.timeout { next = min(next ?? now + t, now + t) }
    if let p = acceptPausedUntil { next = min(next ?? p, p) }
    do throws(SystemError) {
      if let next {
        try timer.arm(after: max(next - Clock.monotonic.now(), .milliseconds(1)))
      } else {
        try timer.disarm()
      }
    } catch {
      fail(error)
    }
  }

  /// Stops serving: a server that cannot time connections out or accept would keep
  /// slots held or the page unreachable for good.
  private func fail(_ error: SystemError) {
    guard failure == nil else { return }
    failure = error
    loop.stop()
  }

  private func hold(_ connection: OpaquePointer, for delay: Duration) {
    guard let t = try? TimerFd(clock: .monotonic) else {
      http.resume(connection)
      return
    }
    delayed[connection] = t
    do {
      try t.arm(after: delay)
      try loop.register(t.descriptor, interest: .readable) { [unowned self] _ in
        guard let t = delayed.removeValue(forKey: connection) else { return }
        loop.unregister(t.descriptor)
        http.resume(connection)
        serve()
      }
    } catch {
      delayed[connection] = nil
      http.resume(connection)
    }
  }

  /// The address an accepted socket counts against.
  private static func peer(_ sa: sockaddr_storage) -> WebPeer {
    var sa = sa
    let family = sa.ss_family
    return withUnsafePointer(to: &sa) { p in
      if family == sa_family_t(AF_INET6) {
        return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          var a = $0.pointee.sin6_addr
          return WebPeer(withUnsafeBytes(of: &a) { Array($0) })
        }
      }
      return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        var a = $0.pointee.sin_addr
        return WebPeer(withUnsafeBytes(of: &a) { Array($0) })
      }
    }
  }
}
