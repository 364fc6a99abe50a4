import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock web` as a process: one `EventLoop` holding the HTTP server, SIGTERM/SIGINT
/// and, with socket activation, the idle exit.
public final class WebProcess {
  private let loop: EventLoop
  private let server: WebServer
  private let signals: SignalFd
  private let idleTimer: TimerFd
  private let idleExit: Duration?
  private let log: Logger

  /// Starts serving `app` on `listenFD` (taken over). With `idleExit`, the process ends
  /// after that long without a request (systemd's socket keeps listening meanwhile).
  public init(
    app: WebApp, listenFD: Int32, limits: WebLimits = WebLimits(), idleExit: Duration?,
    log: Logger
  ) throws(SystemError) {
    self.log = log
    self.idleExit = idleExit
    loop = try EventLoop()
    server = try WebServer(
      loop: loop, listenFD: listenFD, limits: limits,
      bodyLimit: { [maxBody = limits.maxBody] in app.bodyLimit($0, otherwise: maxBody) },
      respond: app.respond)
    try SignalFd.block([SIGTERM, SIGINT])
    SignalFd.ignore(SIGPIPE)
    signals = try SignalFd(signals: [SIGTERM, SIGINT])
    idleTimer = try TimerFd(clock: .monotonic)
    try loop.register(signals.descriptor, interest: .readable) { [unowned self] _ in
      _ = try? signals.read()
      loop.stop()
    }
    if let idleExit {
      try idleTimer.arm(after: idleExit)
      try loop.register(idleTimer.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? idleTimer.read()
        checkIdle()
      }
    }
  }

  /// Serves until a signal or the idle exit; returns the exit code.
  public func run() -> Int32 {
    do throws(SystemError) {
      try loop.run()
    } catch {
      log.error("event loop failed: \(error)")
      server.stop()
      return 1
    }
    server.stop()
    if let failure = server.failure {
      log.error("web server: \(failure); exiting so that a fresh process takes over")
      return 1
    }
    return 0
  }

  private func checkIdle() {
    guard let idleExit else { return }
    let idle = Clock.monotonic.now() - server.lastActivity
    if !server.busy && idle >= idleExit {
      log.info("no request for \(DurationText.format(idleExit)); exiting (the socket stays open)")
      loop.stop()
      return
    }
    do throws(SystemError) {
      try idleTimer.arm(after: server.busy ? idleExit : idleExit - idle)
    } catch {
      // Requests may be in flight: serve on, without the idle exit, and say so.
      log.error("idle timer: \(error); the process no longer exits when idle")
    }
  }
}
