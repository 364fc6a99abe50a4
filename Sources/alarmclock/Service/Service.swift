import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Where the service keeps things: flags first, then the config's `[settings]`, then the
/// system defaults.
struct ServicePaths {
  static let defaultStateDir = "/var/lib/alarmclock"
  static let defaultSocket = "/run/alarmclock/control.sock"

  var config: String
  var stateDir: String
  var socket: String

  init(config: String, stateFlag: String?, socketFlag: String?, settings: Settings?) {
    self.config = config
    stateDir = stateFlag ?? settings?.stateDir ?? ServicePaths.defaultStateDir
    socket = socketFlag ?? settings?.socket ?? ServicePaths.defaultSocket
  }
}

/// Lets closures made before `self` exists reach it later, without a retain cycle.
final class WeakRelay<Target: AnyObject> {
  weak var target: Target?
}

/// The service, `alarmclock run`: one thread sleeping in epoll until the next event.
///
/// Event sources: a CLOCK_REALTIME timerfd armed at the engine's next wake-up (absolute,
/// cancel-on-set, so a clock change wakes it and everything is recomputed), inotify on the
/// config's directory, a signalfd (SIGTERM, SIGINT, SIGHUP), the control socket, the
/// ringer's events (a mailbox from the playback thread), the terminal when stdin is one,
/// and the systemd watchdog timer when WATCHDOG_USEC asks for it. Nothing else wakes it.
final class Service {
  static let version = "0.1.0"
  /// How long before a firing the sound and the device are opened.
  static let prepareLead: Duration = .seconds(2)
  /// How long a failed state write waits before it is tried again.
  static let saveRetry: Duration = .seconds(30)
  /// With nothing scheduled the alarm timer is still armed this far ahead, so that
  /// cancel-on-set keeps reporting clock changes.
  static let idleHorizon: Duration = .seconds(366 * 86_400)

  let paths: ServicePaths
  let environment: [String: String]
  let log: Logger
  let loop: EventLoop
  let configs: ConfigKeeper
  var engine: AlarmEngine
  var store: StateStore
  var ringer: Ringer
  let alarmTimer: TimerFd
  let retryTimer: TimerFd
  let signals: SignalFd
  var watch: FileWatch?
  /// /etc/localtime, watched when the zone is the system's.
  var zoneWatch: FileWatch?
  var server: ControlServer?
  var notify: SdNotify?
  var watchdog: TimerFd?
  var terminal: TerminalKeys?
  /// The GPIO buttons and evdev inputs (ServiceInputs.swift); nil when none are configured.
  var inputs: ServiceInputs?
  let hooks: HookRunner
  /// The firing the ringer was prepared for, so it is prepared once.
  var prepared: Firing?
  /// Set while the state on disk is behind the engine's (a write failed).
  var saveFailing = false
  /// The last thing the audio side reported, for `status`.
  var audioStatus = InputStatus(name: "audio", available: true, detail: "idle")
  /// The firing whose first frame is awaited, to log how late it came.
  var awaitingFirstFrame: Instant?
  /// Whether the realtime timer's deadline is a prepare point (else an engine wake-up).
  var armedForPrepare = false

  init(paths: ServicePaths, configs: ConfigKeeper, environment: [String: String], log: Logger)
    throws(SystemError)
  {
    self.paths = paths
    self.environment = environment
    self.log = log
    self.configs = configs
    // Blocked before the ringer starts its thread, which inherits the mask: the signals
    // must reach only the signalfd, never kill the process from another thread.
    // An ignored signal never reaches a signalfd, and `nohup` or a parent may have set
    // SIG_IGN: restore the defaults, harmless while the signals are blocked.
    for sig in [SIGTERM, SIGINT, SIGHUP] { signal(sig, SIG_DFL) }
    try SignalFd.block([SIGTERM, SIGINT, SIGHUP])
    SignalFd.ignore(SIGPIPE)
    loop = try EventLoop()
    store = StateStore(directory: paths.stateDir)
    let state = store.load(log: { log.log($0, $1) })
    let current = configs.current
    engine = AlarmEngine(
      alarms: current.config.alarms,
      source: Schedule(alarms: current.config.alarms, zone: current.zone),
      state: state, options: Service.engineOptions(current.config))
    let relay = WeakRelay<Service>()
    let mailbox = loop.makeMailbox(RingerEvent.self) { [relay] event in
      relay.target?.ringerEvent(event)
    }
    ringer = Ringer(
      defaultSound: Service.soundResolver(current.config).defaultSound(),
      log: { level, text in log.log(level, text) },
      events: { mailbox.send($0) })
    hooks = HookRunner(
      loop: loop, environment: Environment(environment),
      log: { level, text in log.log(level, text) })
    alarmTimer = try TimerFd(clock: .realtime)
    retryTimer = try TimerFd(clock: .monotonic)
    signals = try SignalFd(signals: [SIGTERM, SIGINT, SIGHUP])
    relay.target = self
  }

  static func engineOptions(_ config: Config) -> EngineOptions {
    let preRing = config.hooks.commands[.preRing] != nil
    return EngineOptions(preRingLead: preRing ? config.hooks.preRingLead : nil)
  }

  static func soundResolver(_ config: Config) -> SoundResolver {
    SoundResolver(
      directories: config.settings.soundDirs
        + SoundResolver.defaultDirectories(executablePath: executablePath()))
  }

  var config: Config { configs.current.config }
  var zone: TimeZoneRules { configs.current.zone }

  // MARK: Start and stop

  /// Sets every source up, catches up with the clock, says READY=1 and runs until a
  /// SIGTERM or SIGINT. Returns the exit code.
  func run(terminal useTerminal: Bool) -> Int32 {
    do throws(SystemError) {
      try loop.register(signals.descriptor, interest: .readable) { [unowned self] _ in
        self.signalsReady()
      }
      try loop.register(alarmTimer.descriptor, interest: .readable) { [unowned self] _ in
        self.alarmTimerFired()
      }
      try loop.register(retryTimer.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? self.retryTimer.read()
        self.saveState()
      }
      startWatching()
      startWatchingSystemZone()
      try startServer()
      if useTerminal { startTerminal() }
      startWatchdog()
      startInputs()
    } catch {
      log.error("cannot start: \(error)")
      return ExitCode.failure
    }
    let now = currentInstant()
    perform(engine.advance(to: now))
    rearm(now: now)
    let ready = readyStatus()
    log.notice(ready)
    notify = try? SdNotify(environment: AlarmPlatform.Environment(environment))
    try? notify?.ready(status: ready)
    do throws(SystemError) {
      try loop.run()
    } catch {
      log.error("event loop failed: \(error)")
      shutDown()
      return ExitCode.failure
    }
    shutDown()
    return ExitCode.ok
  }

  private func shutDown() {
    try? notify?.stopping()
    ringer.stop()
    inputs?.close()
    saveState(force: true)
    hooks.stopAll(grace: .seconds(1))
    terminal?.restore()
    server?.close()
    log.notice("stopped")
  }

  private func signalsReady() {
    guard let infos = try? signals.read() else { return }
    for info in infos {
      switch info.signal {
      case SIGHUP:
        log.info("SIGHUP: reading \(paths.config) again")
        reloadConfig(reason: "SIGHUP", force: true)
      default:
        log.notice("signal \(info.signal) from pid \(info.senderPID): stopping")
        loop.stop()
      }
    }
  }

  private func startServer() throws(SystemError) {
    let listener: UnixListener
    do throws(SystemError) {
      listener = try UnixListener(
        path: paths.socket, mode: 0o660, createParentDirectory: true, backlog: 512)
    } catch  where error.errno == EADDRINUSE {
      throw SystemError(
        "bind(\(paths.socket))", errno: EADDRINUSE,
        detail: "another alarmclock is already running there")
    }
    // Descriptors for clients come from a raised limit, with room kept for a ring's.
    let clientCap = ControlServer.Limits.maxClients(fileLimit: FileLimit.raiseToHard())
    server = try ControlServer(
      listener: listener, loop: loop, limits: .init(maxClients: clientCap),
      handler: { [unowned self] line, responder in
        responder.reply(self.handleRequest(line))
      },
      lineTooLong: ControlReply.lineTooLong.encodedLine().dropLast(),
      tooManyClients: ControlReply.failure(ControlError(.internal, "too many clients; try again"))
        .encodedLine().dropLast())
  }

  private func startWatching() {
    do throws(SystemError) {
      let w = try FileWatch(path: paths.config)
      try loop.register(w.descriptor, interest: .readable) { [unowned self] _ in
        self.configDirectoryChanged()
      }
      watch = w
    } catch {
      log.warning(
        "cannot watch \(paths.config) for changes (\(error)); use SIGHUP or 'alarmclock reload'")
    }
  }

  /// `timedatectl set-timezone` replaces /etc/localtime; alarms follow at once. (Only
  /// when neither `timezone` nor `TZ` fixes the zone.)
  private func startWatchingSystemZone() {
    guard environment["TZ"] == nil else { return }
    do throws(SystemError) {
      let w = try FileWatch(path: "/etc/localtime")
      try loop.register(w.descriptor, interest: .readable) { [unowned self] _ in
        guard let changes = try? w.read(), changes.contains(where: { $0 != .removed }) else {
          return
        }
        guard self.config.settings.timezone == nil else { return }
        self.log.notice("the system time zone changed")
        self.reloadConfig(reason: "system time zone changed", force: true, reread: true)
      }
      zoneWatch = w
    } catch {
      log.info(
        "not watching /etc/localtime (\(error)): a new system time zone applies after a restart")
    }
  }

  private func configDirectoryChanged() {
    guard let w = watch, let changes = try? w.read() else { return }
    if changes.contains(.directoryGone) {
      // Replaced (a new directory renamed over it): watch the new one at once.
      if (try? w.rewatch()) != nil {
        reloadConfig(reason: "config directory replaced", force: false)
      } else {
        log.warning(
          "the config's directory went away; edits are seen again after SIGHUP or "
            + "'alarmclock reload' once it is back")
      }
    }
    if changes.contains(.written) || changes.contains(.overflow) {
      reloadConfig(reason: "file changed", force: false)
    } else if changes.contains(.removed) {
      log.warning("\(paths.config) was removed; the config in force stays")
    }
  }

  private func startWatchdog() {
    guard let interval = SdNotify.watchdogInterval(environment: Environment(environment)) else {
      return
    }
    do throws(SystemError) {
      let t = try TimerFd(clock: .monotonic)
      try t.arm(after: interval, repeating: interval)
      try loop.register(t.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? t.read()
        try? self.notify?.watchdog()
      }
      watchdog = t
    } catch {
      log.warning("watchdog timer: \(error)")
    }
  }

  // MARK: Time

  private func alarmTimerFired() {
    let expiry: TimerFd.Expiry?
    do throws(SystemError) {
      expiry = try alarmTimer.read()
    } catch {
      log.error("alarm timer: \(error)")
      expiry = .expired(1)
    }
    let now = currentInstant()
    switch expiry {
    case nil: return
    case .clockChanged?:
      clockWasSet(now: now)
    case .expired?:
      if armedForPrepare { prepareNextRing(now: now) }
    }
    perform(engine.advance(to: now))
    rearm(now: now)
  }

  private func clockWasSet(now: Instant) {
    log.notice("the system clock was set: now \(ISO8601Text.format(now, in: zone))")
    prepared = nil
  }

  /// Arms the realtime timer at the engine's next wake-up, or a little before the next
  /// firing so the ringer can open the sound and the device ahead of it.
  func rearm(now: Instant) {
    var now = now
    // A clock change between the timer's last read and this arm (say a request was served
    // first) is reported by the arm itself, ECANCELED, with the timer armed all the same:
    // it is a clock change like any other, so recompute from the new time and arm again.
    for _ in 0..<3 {
      do throws(SystemError) {
        try arm(now: now)
        break
      } catch  where error.errno == ECANCELED {
        log.debug("alarm timer: the clock was set while re-arming")
        now = currentInstant()
        clockWasSet(now: now)
        perform(engine.advance(to: now))
      } catch {
        // Without the timer nothing would ring: fail loudly and let systemd restart us.
        log.error("cannot arm the alarm timer: \(error); exiting so the service restarts")
        loop.stop()
        break
      }
    }
    terminal?.show(statusLine(now: now))
  }

  private func arm(now: Instant) throws(SystemError) {
    let wake = engine.nextWake(now: now)
    var deadline = wake ?? now + Service.idleHorizon
    armedForPrepare = false
    if let f = engine.upcoming(after: now, count: 1).first, prepared != f, !engine.soundPlaying {
      let at = f.at - Service.prepareLead
      if at > now && at < deadline {
        deadline = at
        armedForPrepare = true
      } else if at <= now && f.at > now {
        prepareNextRing(now: now)
      }
    }
    try alarmTimer.arm(at: .seconds(deadline.seconds), cancelOnClockChange: true)
  }

  private func prepareNextRing(now: Instant) {
    guard !engine.soundPlaying, let f = engine.upcoming(after: now, count: 1).first,
      let alarm = engine.alarms[f.alarmID], f.at - now <= Service.prepareLead + .seconds(1)
    else { return }
    prepared = f
    ringer.prepare(ringRequest(alarm, remaining: alarm.ringFor))
  }

  // MARK: Config

  /// Reads the config again; a good one replaces the one in force at once.
  @discardableResult
  func reloadConfig(reason: String, force: Bool, reread: Bool = false) -> ConfigKeeper.Outcome {
    let now = currentInstant()
    let before = config.settings
    if let w = watch, !w.isWatching, (try? w.rewatch()) != nil {
      log.notice("watching \(paths.config) for changes again")
    }
    let outcome = configs.reload(now: now, force: reread)
    switch outcome {
    case .unchanged:
      if force { log.info("config unchanged") }
    case .rejected(let errors):
      for e in errors { log.error(e) }
      log.error("config rejected (\(reason)); the last good config stays in force")
      try? notify?.status("config has errors; running the last good config")
    case .applied(let warnings):
      for w in warnings { log.warning(w) }
      engine.options = Service.engineOptions(config)
      perform(
        engine.reload(
          alarms: config.alarms, source: Schedule(alarms: config.alarms, zone: zone), now: now))
      if config.settings.stateDir != before.stateDir || config.settings.socket != before.socket {
        log.notice("state_dir and socket changes apply after a restart")
      }
      prepared = nil
      applyInputs()
      let n = config.alarms.count
      log.notice("config applied (\(reason)): \(n) alarm\(n == 1 ? "" : "s")")
      try? notify?.status(readyStatus())
      rearm(now: now)
    }
    return outcome
  }

  func readyStatus() -> String {
    let now = currentInstant()
    guard let f = engine.upcoming(after: now, count: 1).first else {
      return "ready: no alarm is set"
    }
    let label = engine.alarms[f.alarmID]?.label ?? f.alarmID
    return "ready: next \(label) at \(ISO8601Text.format(f.at, in: zone))"
  }
}
