import AlarmAudio
import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

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
  public static let version = AlarmclockVersion.string

  /// The paths in use.
  public let paths: ServicePaths
  let environment: [String: String]
  let options: ServiceOptions
  let log: Logger
  let clock: ServiceClock
  /// The loop every source is registered on; owned by the thread that calls `run`.
  public let loop: EventLoop
  let configs: ConfigKeeper
  /// The reminder list in force and its due times (`Reminders/ReminderKeeper.swift`).
  let reminders: ReminderKeeper
  var reminderWatch: FileWatch?
  /// Due reminders waiting for a ring or an utterance to end.
  var reminderQueue: [Reminder] = []
  /// The `skip_calendars` files in force and their days off.
  let calendars: CalendarKeeper
  var engine: AlarmEngine
  let saver: StateSaver
  /// The ring's one owner: the ringer, the prepared ring, its sound, the device check and
  /// the buzzer (`Ring/RingCoordinator.swift`).
  let ring: RingCoordinator
  let alarmTimer: TimerFd
  let signals: SignalFd
  var watch: FileWatch?
  /// /etc/localtime, watched when the zone is the system's.
  var zoneWatch: FileWatch?
  var server: ControlServer?
  var notify: SdNotify?
  var watchdog: TimerFd?
  /// Whether the last WATCHDOG=1 failed (its error is logged once per run of failures).
  var watchdogFailing = false
  /// How many times idle pages were released (the tests count them).
  var pageReleases = 0
  /// Releases the clean file pages when idle (Service+Memory.swift; `run()` only).
  var pageRelease: TimerFd?
  /// When `pageRelease` fires (monotonic), while it is armed.
  var pageReleaseDue: Duration?
  var terminal: TerminalKeys?
  /// The GPIO buttons and evdev inputs; nil when none are configured.
  var inputs: PressInputs?
  let hooks: HookRunner
  /// The time and the next alarm said on a press while nothing rings.
  let speech: SpeechCoordinator
  /// The time and label said over an announcing alarm's ring.
  let announcer: Announcer
  /// The realtime timer's plan: its deadline and whether that is a prepare point.
  public internal(set) var wakePlan: WakePlan?
  /// What the service saw of the clock: synchronisation, jumps (Service+Clock.swift).
  var clockWatch = ClockWatch()
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
    // The state directory and socket may be set in the config itself, and must be found
    // even when it is broken: the last good copy and the state are there.
    let reading = ConfigKeeper.Reading(path: options.configPath, environment: env, now: now)
    let settings = reading.settings(path: options.configPath)
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
      path: paths.config, stateDir: paths.stateDir, environment: env, now: now, reading: reading,
      log: { log.log($0, $1) })
    log.info(
      "alarmclock \(Service.version): config \(paths.config), state \(paths.stateDir), "
        + "socket \(paths.socket)")
    if geteuid() == 0 {
      log.notice(StateFiles.rootNotice(stateDir: paths.stateDir, socket: paths.socket))
    }
    self.paths = paths
    self.options = options
    self.environment = env
    self.log = log
    self.clock = clock
    self.configs = configs
    reminders = ReminderKeeper(
      configPath: paths.config, now: now, zone: configs.current.zone, log: log)
    let audioWatch: AudioWatch
    do throws(SystemError) {
      // Blocked before the ringer starts its thread, which inherits the mask: the signals
      // must reach only the signalfd, never kill the process from another thread.
      // An ignored signal never reaches a signalfd, and `nohup` or a parent may have set
      // SIG_IGN: restore the defaults, harmless while the signals are blocked.
      for sig in [SIGTERM, SIGINT, SIGHUP] { signal(sig, SIG_DFL) }
      try SignalFd.block([SIGTERM, SIGINT, SIGHUP])
      SignalFd.ignore(SIGPIPE)
      loop = try EventLoop()
      // Clients never hold the loop, which may run real-time, for more than its share.
      loop.clientShare = EventLoop.serviceClientShare
      saver = try StateSaver(
        directory: paths.stateDir, loop: loop, log: log,
        minInterval: options.stateWriteInterval, retryInterval: options.stateRetryInterval)
      alarmTimer = try TimerFd(clock: .realtime)
      signals = try SignalFd(signals: [SIGTERM, SIGINT, SIGHUP])
      audioWatch = try AudioWatch()
    } catch {
      throw ServiceStartError("cannot start: \(error)")
    }
    let state = saver.load()
    let current = configs.current
    calendars = CalendarKeeper(
      current.calendars, today: current.zone.local(at: now).date, log: log)
    engine = AlarmEngine(
      alarms: current.config.alarms,
      source: Schedule(
        alarms: current.config.alarms, zone: current.zone, daysOff: calendars.daysOff),
      state: state, options: Service.engineOptions(current.config))
    let relay = WeakRelay<Service>()
    let mailbox = loop.makeMailbox(RingerEvent.self) { [relay] event in
      relay.target?.ringerEvent(event)
    }
    do throws(SystemError) {
      let ringer = try Ringer(
        defaultSound: Service.soundResolver(current.config).defaultSound(),
        log: { level, text in log.log(level, text) },
        events: { mailbox.send($0) },
        priority: options.realtime ? ThreadPriority.playback : nil, streams: options.streams)
      ring = RingCoordinator(ringer: ringer, watch: audioWatch, log: log)
    } catch {
      throw ServiceStartError("cannot start the ringer: \(error)")
    }
    hooks = HookRunner(
      loop: loop, environment: Environment(env),
      log: { level, text in log.log(level, text) })
    speech = SpeechCoordinator(
      loop: loop, log: log, directory: FileSystem.directoryName(paths.socket),
      environment: Environment(env))
    do throws(SystemError) {
      announcer = try Announcer(
        loop: loop, log: log, directory: FileSystem.directoryName(paths.socket),
        environment: Environment(env), now: { clock.now() },
        say: { [relay] clip, percent in relay.target?.ring.announce(clip, percent: percent) })
    } catch {
      throw ServiceStartError("cannot start: \(error)")
    }
    relay.target = self
    speech.onIdle = { [unowned self] in self.releasePagesSoon() }
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
    startReleasingPages()
    let scheduling = ThreadPriority.current()
    if options.realtime {
      let outcome = ThreadPriority.raiseCallingThread(to: ThreadPriority.eventLoop)
      let text = outcome.message(thread: "event loop")
      if case .raised = outcome { log.info(text) } else { log.warning(text) }
    }
    defer {
      shutDown()
      ThreadPriority.restore(scheduling)
    }
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
    startWatchingReminders()
    startWatchingSystemZone()
    startCalendars()
    try startServer()
    if options.terminal { startTerminal() }
    startWatchdog()
    startInputs()
    try startAudioWatch()
    let now = clock.now()
    watchClock(now: now, starting: true)
    settle(engine.advance(to: now), now: now)
    remindersReached(now: now)  // one due while the service was restarting
    let ready = readyStatus()
    log.notice(ready)
    do throws(SystemError) {
      notify = try SdNotify(environment: AlarmPlatform.Environment(environment))
      try notify?.ready(status: ready)
    } catch {
      // Under Type=notify systemd kills a service that never says READY: say why first.
      log.error("cannot tell systemd the service is ready (NOTIFY_SOCKET): \(error)")
    }
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
    ring.shutDown()
    inputs?.close()
    saver.flush(engine.state)
    hooks.stopAll(grace: .seconds(1))
    speech.stop()
    announcer.shutDown()
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
        reloadReminders(reason: "SIGHUP")
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
        self.socketRequest(line, responder)
      },
      lineTooLong: ControlReply.lineTooLong.encodedLine().dropLast(),
      tooManyClients: ControlServer.failureLine("too many clients; try again"))
  }

}
