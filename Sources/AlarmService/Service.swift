import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Where the service keeps things: flags first, then the config's `[settings]`, then the
/// system defaults.
public struct ServicePaths: Sendable {
  /// The state directory when neither a flag nor `[settings] state_dir` names one.
  public static let defaultStateDir = "/var/lib/alarmclock"
  /// The control socket when neither a flag nor `[settings] socket` names one.
  public static let defaultSocket = "/run/alarmclock/control.sock"

  /// The config file.
  public var config: String
  /// The directory of `state.json` and `last-good.toml`.
  public var stateDir: String
  /// The control socket's path.
  public var socket: String

  /// Resolves the paths: a flag wins over the config's `settings`, which wins over the
  /// defaults.
  public init(config: String, stateFlag: String?, socketFlag: String?, settings: Settings?) {
    self.config = config
    stateDir = stateFlag ?? settings?.stateDir ?? ServicePaths.defaultStateDir
    socket = socketFlag ?? settings?.socket ?? ServicePaths.defaultSocket
  }
}

/// What `alarmclock run` asks of the service.
public struct ServiceOptions: Sendable {
  /// The config file (`ConfigFile.path` resolves the flag and `$ALARMCLOCK_CONFIG`).
  public var configPath: String
  /// `--state-dir`, if given.
  public var stateDir: String?
  /// `--socket`, if given.
  public var socket: String?
  /// The process environment (`TZ`, `NOTIFY_SOCKET`, `WATCHDOG_USEC`, locale, ...).
  public var environment: [String: String]
  /// Read snooze and stop keys from stdin (a terminal).
  public var terminal: Bool
  /// Where GPIO chips are looked for (tests point it elsewhere).
  public var devDirectory = "/dev"
  /// Where evdev devices are looked for.
  public var inputDirectory = "/dev/input"
  /// The shortest time between two state-file writes (`StateSaver`).
  public var stateWriteInterval: Duration = .milliseconds(250)
  /// How long a failed state-file write waits before it is tried again.
  public var stateRetryInterval: Duration = .seconds(30)

  public init(
    configPath: String, stateDir: String? = nil, socket: String? = nil,
    environment: [String: String], terminal: Bool = false
  ) {
    self.configPath = configPath
    self.stateDir = stateDir
    self.socket = socket
    self.environment = environment
    self.terminal = terminal
  }
}

/// The one place the service reads the wall clock; tests inject their own.
public struct ServiceClock: Sendable {
  /// The current instant.
  public var now: @Sendable () -> Instant

  public init(now: @escaping @Sendable () -> Instant) { self.now = now }

  /// CLOCK_REALTIME.
  public static let system = ServiceClock(now: { currentInstant() })
}

/// Why the service could not start, in one line naming the path or the call at fault.
public struct ServiceStartError: Error, CustomStringConvertible, Sendable {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Lets closures made before `self` exists reach it later, without a retain cycle.
final class WeakRelay<Target: AnyObject> {
  weak var target: Target?
}

/// The service, `alarmclock run`: one thread sleeping in epoll until the next event.
///
/// Event sources: a CLOCK_REALTIME timerfd armed at the `WakePlan`'s deadline (absolute,
/// cancel-on-set, so a clock change wakes it and everything is recomputed), inotify on the
/// config's directory, a signalfd (SIGTERM, SIGINT, SIGHUP), the control socket, the
/// ringer's events (a mailbox from the playback thread), the buttons and input devices,
/// the state saver's timer, the terminal when stdin is one, and the systemd watchdog timer
/// when WATCHDOG_USEC asks for it. Nothing else wakes it.
///
/// `run()` is the whole life of `alarmclock run`; tests instead call `start()`, turn the
/// loop with `runOnce(timeout:)` and end with `shutDown()`, the clock injected.
public final class Service {
  /// The version `status` reports.
  public static let version = "0.1.0"

  /// The paths in use.
  public let paths: ServicePaths
  let environment: [String: String]
  let options: ServiceOptions
  let log: Logger
  let clock: ServiceClock
  /// The loop every source is registered on; owned by the thread that calls `run`.
  public let loop: EventLoop
  let configs: ConfigKeeper
  var engine: AlarmEngine
  let saver: StateSaver
  var ringer: Ringer
  let alarmTimer: TimerFd
  let signals: SignalFd
  var watch: FileWatch?
  /// /etc/localtime, watched when the zone is the system's.
  var zoneWatch: FileWatch?
  var server: ControlServer?
  var notify: SdNotify?
  var watchdog: TimerFd?
  var terminal: TerminalKeys?
  /// The GPIO buttons and evdev inputs; nil when none are configured.
  var inputs: PressInputs?
  let hooks: HookRunner
  /// The firing the ringer was prepared for, so it is prepared once.
  var prepared: Firing?
  /// The last thing the audio side reported, for `status`.
  var audioStatus = InputStatus(name: "audio", available: true, detail: "idle")
  /// The firing whose first frame is awaited, to log how late it came.
  var awaitingFirstFrame: Instant?
  /// The realtime timer's plan: its deadline and whether that is a prepare point.
  public private(set) var wakePlan: WakePlan?
  /// Called with each ringer event after the service has handled it (tests watch rings).
  public var ringerEvents: ((RingerEvent) -> Void)?
  private var stopped = false

  /// Resolves the paths, refuses unsafe ones, creates the state directory, reads the
  /// config (falling back to the last good copy) and the state, and opens the loop, the
  /// timers and the ringer. Nothing is served before `start()`.
  public init(options: ServiceOptions, log: Logger, clock: ServiceClock = .system)
    throws(ServiceStartError)
  {
    let env = options.environment
    let now = clock.now()
    // The state directory and socket may be set in the config itself.
    var settings: Settings? = nil
    if case .success(let loaded) = ConfigFile.load(options.configPath, environment: env, now: now) {
      settings = loaded.config?.settings
    }
    let paths = ServicePaths(
      config: options.configPath, stateFlag: options.stateDir, socketFlag: options.socket,
      settings: settings)
    do throws(UnsafePathError) {
      try PathSafety.checkDirectory(paths.stateDir, role: "the state directory")
      try PathSafety.checkDirectory(
        FileSystem.directoryName(paths.socket), role: "the control socket's directory")
    } catch {
      throw ServiceStartError(error.description)
    }
    // Made first: the last good config is copied there as soon as it is read.
    do throws(SystemError) {
      try FileSystem.createDirectory(paths.stateDir, mode: 0o750, intermediates: true)
    } catch {
      log.error("state directory: \(error); state will not survive a restart until fixed")
    }
    let configs = ConfigKeeper(
      path: paths.config, stateDir: paths.stateDir, environment: env, now: now,
      log: { log.log($0, $1) })
    log.info(
      "alarmclock \(Service.version): config \(paths.config), state \(paths.stateDir), "
        + "socket \(paths.socket)")
    self.paths = paths
    self.options = options
    self.environment = env
    self.log = log
    self.clock = clock
    self.configs = configs
    do throws(SystemError) {
      // Blocked before the ringer starts its thread, which inherits the mask: the signals
      // must reach only the signalfd, never kill the process from another thread.
      // An ignored signal never reaches a signalfd, and `nohup` or a parent may have set
      // SIG_IGN: restore the defaults, harmless while the signals are blocked.
      for sig in [SIGTERM, SIGINT, SIGHUP] { signal(sig, SIG_DFL) }
      try SignalFd.block([SIGTERM, SIGINT, SIGHUP])
      SignalFd.ignore(SIGPIPE)
      loop = try EventLoop()
      saver = try StateSaver(
        directory: paths.stateDir, loop: loop, log: log,
        minInterval: options.stateWriteInterval, retryInterval: options.stateRetryInterval)
      alarmTimer = try TimerFd(clock: .realtime)
      signals = try SignalFd(signals: [SIGTERM, SIGINT, SIGHUP])
    } catch {
      throw ServiceStartError("cannot start: \(error)")
    }
    let state = saver.load()
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
      loop: loop, environment: Environment(env),
      log: { level, text in log.log(level, text) })
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

  /// The whole of `alarmclock run`: `start()`, the loop until SIGTERM or SIGINT, then
  /// `shutDown()`. Returns the exit code.
  public func run() -> Int32 {
    do throws(SystemError) {
      try start()
    } catch {
      log.error("cannot start: \(error)")
      return EXIT_FAILURE
    }
    defer { shutDown() }
    do throws(SystemError) {
      try loop.run()
    } catch {
      log.error("event loop failed: \(error)")
      return EXIT_FAILURE
    }
    return EXIT_SUCCESS
  }

  /// Registers every source, catches up with the clock, arms the timer and says READY=1.
  public func start() throws(SystemError) {
    try loop.register(signals.descriptor, interest: .readable) { [unowned self] _ in
      self.signalsReady()
    }
    try loop.register(alarmTimer.descriptor, interest: .readable) { [unowned self] _ in
      self.alarmTimerFired()
    }
    startWatching()
    startWatchingSystemZone()
    try startServer()
    if options.terminal { startTerminal() }
    startWatchdog()
    startInputs()
    let now = clock.now()
    perform(engine.advance(to: now))
    rearm(now: now)
    let ready = readyStatus()
    log.notice(ready)
    notify = try? SdNotify(environment: AlarmPlatform.Environment(environment))
    try? notify?.ready(status: ready)
  }

  /// Waits at most `timeout` for events and handles them (tests turn the loop this way).
  @discardableResult
  public func runOnce(timeout: Duration?) throws(SystemError) -> Int {
    try loop.runOnce(timeout: timeout)
  }

  /// Stops the sound, releases the inputs, writes the state, stops the hooks and closes
  /// the socket. Idempotent.
  public func shutDown() {
    guard !stopped else { return }
    stopped = true
    try? notify?.stopping()
    ringer.stop()
    inputs?.close()
    saver.flush(engine.state)
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
    server = try ControlServer(
      listener: listener, loop: loop,
      handler: { [unowned self] line, responder in
        self.socketRequest(line, responder)
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

  /// The realtime timer expired (or the clock was set). Tests call it at the plan's
  /// deadline after moving their clock there, instead of waiting.
  func alarmTimerFired() {
    let expiry: TimerFd.Expiry?
    do throws(SystemError) {
      expiry = try alarmTimer.read()
    } catch {
      log.error("alarm timer: \(error)")
      expiry = .expired(1)
    }
    timeReached(expiry)
  }

  /// Acts on a timer expiry read at the clock's now.
  func timeReached(_ expiry: TimerFd.Expiry?) {
    let now = clock.now()
    switch expiry {
    case nil: return
    case .clockChanged?:
      clockWasSet(now: now)
    case .expired?:
      if wakePlan?.isPreparePoint == true { prepareNextRing(now: now) }
    }
    perform(engine.advance(to: now))
    rearm(now: now)
  }

  private func clockWasSet(now: Instant) {
    log.notice("the system clock was set: now \(ISO8601Text.format(now, in: zone))")
    prepared = nil
  }

  /// Arms the realtime timer at the wake plan's deadline: the engine's next wake-up, or a
  /// little before the next firing so the ringer can open the sound and the device.
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
        now = clock.now()
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
    let plan = engine.wakePlan(now: now, prepared: prepared)
    wakePlan = plan
    if plan.prepareNow != nil { prepareNextRing(now: now) }
    try alarmTimer.arm(at: .seconds(plan.deadline.seconds), cancelOnClockChange: true)
  }

  private func prepareNextRing(now: Instant) {
    guard let f = engine.firingToPrepare(now: now), let alarm = engine.alarms[f.alarmID] else {
      return
    }
    prepared = f
    ringer.prepare(ringRequest(alarm, remaining: alarm.ringFor))
  }

  // MARK: Config

  /// Reads the config again; a good one replaces the one in force at once.
  @discardableResult
  func reloadConfig(reason: String, force: Bool, reread: Bool = false) -> ConfigKeeper.Outcome {
    let now = clock.now()
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
    let now = clock.now()
    guard let f = engine.upcoming(after: now, count: 1).first else {
      return "ready: no alarm is set"
    }
    let label = engine.alarms[f.alarmID]?.label ?? f.alarmID
    return "ready: next \(label) at \(ISO8601Text.format(f.at, in: zone))"
  }
}
