import AlarmCore
import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// Runs hook commands as child processes from the service's event loop, never blocking it.
///
/// Each hook is spawned with posix_spawn (no shell; `HookProcess.spawn` has the details)
/// as the leader of its own process group, and watched through three descriptors in the
/// loop: a pidfd that becomes readable when it exits (then it is reaped with
/// `waitpid(pid, WNOHANG)`), the read end of the pipe its stdout and stderr share (logged
/// line by line, at most `outputLimit` bytes), and a monotonic timer for its timeout. A
/// hook is done when its process has exited and its output pipe is closed, i.e. when
/// whatever it left running in the background has finished writing too. At the timeout
/// the whole group gets SIGTERM, `killGrace` later SIGKILL.
///
/// Every failure (nothing to run, a missing program, a non-zero exit, a signal, a timeout,
/// too many hooks at once) is logged through `log`; none is fatal. Loop-thread only.
public final class HookRunner {
  /// Hooks running at once at most; further ones are logged and dropped, so a storm of
  /// events cannot fork-bomb the box.
  public let maxRunning: Int
  /// Bytes of each hook's output logged at most.
  public let outputLimit: Int
  /// How long a hook gets between SIGTERM and SIGKILL.
  public let killGrace: Duration
  /// Called on the loop thread after each hook ended (after its outcome was logged).
  public var onFinish: ((HookResult) -> Void)?

  /// Variables systemd meant for the service alone, never passed to a hook: with them a
  /// hook could send sd_notify messages (or watchdog pings) as the service, or take the
  /// service's socket-activation descriptors for its own.
  public static let serviceOnly: Set<String> = [
    "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID",
    "LISTEN_FDNAMES",
  ]
  /// Once a hook's output is over its budget its pipe is read once per `floodPause` (a
  /// bounded amount each time, the rest counted and dropped): a hook that floods its
  /// output then waits on a full pipe instead of keeping the loop and the CPU busy.
  public static let floodPause: Duration = .milliseconds(100)

  private let loop: EventLoop
  private let environment: Environment
  private let log: (LogLevel, String) -> Void
  private var hooks: [pid_t: Hook] = [:]

  /// A runner on `loop`. `environment` is the service's: hooks get it plus their
  /// `ALARM_*` variables, and its PATH is where programs without a `/` are looked up.
  public init(
    loop: EventLoop, environment: Environment = .current(), maxRunning: Int = 16,
    outputLimit: Int = 4096, killGrace: Duration = .seconds(2),
    log: @escaping (LogLevel, String) -> Void
  ) {
    self.loop = loop
    self.environment = environment
    self.maxRunning = max(1, maxRunning)
    self.outputLimit = outputLimit
    self.killGrace = killGrace
    self.log = log
  }

  /// Hooks currently running.
  public var runningCount: Int { hooks.count }

  /// The process (and process group) ids of the running hooks.
  public var runningPIDs: [Int32] { Array(hooks.keys).sorted() }

  /// Starts `argv` (program and arguments, run as they are; a program without a `/` is
  /// looked up in the service's PATH) with the service's environment plus `extra`, killed
  /// after `timeout`; `name` (the event) prefixes its log lines. Returns at once with the
  /// child's pid, or nil (and a logged reason) when it was not started.
  @discardableResult
  public func run(
    _ argv: [String], environment extra: [String: String] = [:], timeout: Duration,
    name: String
  ) -> Int32? {
    guard let program = argv.first, !program.isEmpty else {
      log(.error, "hook \(name): no command to run")
      return nil
    }
    guard hooks.count < maxRunning else {
      log(.warning, "hook \(name): not run: \(hooks.count) hooks are still running")
      return nil
    }
    guard let file = HookProcess.resolve(program, path: environment["PATH"]) else {
      let path = environment["PATH"] ?? HookProcess.defaultPath
      log(.error, "hook \(name): cannot run '\(program)': not found in PATH (\(path))")
      return nil
    }
    var variables = environment.values.filter { !HookRunner.serviceOnly.contains($0.key) }
    variables.merge(extra) { _, new in new }
    let envp = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    do {
      let hook = try start(file: file, argv: argv, envp: envp, timeout: timeout, name: name)
      log(.debug, "hook \(name): started \(file) (pid \(hook.pid))")
      return hook.pid
    } catch {
      log(.error, "hook \(name): cannot run '\(program)': \(error)")
      return nil
    }
  }

  /// Runs the configured command for `call.event`, if there is one, with the `ALARM_*`
  /// variables of `HookEnvironment.variables(for:zone:defaultLabel:)` and `hooks.timeout`.
  /// Nil when the event has no command or the hook could not start.
  @discardableResult
  public func run(
    _ call: HookCall, hooks config: HooksConfig, zone: TimeZoneRules,
    defaultLabel: String = "Alarm"
  ) -> Int32? {
    guard let argv = config.commands[call.event] else { return nil }
    let extra = HookEnvironment.variables(for: call, zone: zone, defaultLabel: defaultLabel)
    return run(argv, environment: extra, timeout: config.timeout, name: call.event.rawValue)
  }

  /// For service shutdown: SIGTERM to every running hook's process group, up to `grace`
  /// (polling, this blocks) for them to exit, then SIGKILL to the groups still there.
  /// Reaps the leaders, logs their outcomes and releases every descriptor.
  public func stopAll(grace: Duration = .seconds(1)) {
    guard !hooks.isEmpty else { return }
    for hook in hooks.values {
      log(.notice, "hook \(hook.name): terminating it, the service is stopping")
      HookProcess.signalGroup(hook.pid, SIGTERM)
    }
    waitForLeaders(upTo: grace)
    for hook in hooks.values { HookProcess.signalGroup(hook.pid, SIGKILL) }
    waitForLeaders(upTo: .seconds(1))
    for hook in Array(hooks.values) {
      readOutput(hook)
      close(output: hook)
      if hook.status == nil {
        log(.error, "hook \(hook.name): pid \(hook.pid) did not die even after SIGKILL")
        hook.status = .unknown
      }
      finish(hook)
    }
  }

  // MARK: - One hook's life

  private func start(
    file: String, argv: [String], envp: [String], timeout: Duration, name: String
  ) throws(SystemError) -> Hook {
    let timer = try TimerFd(clock: .monotonic)
    let pipe = try FileDescriptor.pipe()
    try pipe.read.setNonBlocking()
    let pid = try HookProcess.spawn(file: file, argv: argv, environment: envp, output: pipe.write)
    pipe.write.close()
    let pidfd: Int32
    do throws(SystemError) {
      pidfd = try retryingEINTR("pidfd_open(\(pid))") { cshim_pidfd_open(pid) }
    } catch {
      // Without a pidfd the loop cannot notice the exit: do not leave it running unwatched.
      HookProcess.signalGroup(pid, SIGKILL)
      var status: Int32 = 0
      _ = try? retryingEINTR("waitpid(\(pid))") { waitpid(pid, &status, 0) }
      throw error
    }
    let hook = Hook(
      name: name, pid: pid, timeout: timeout, exit: FileDescriptor(owning: pidfd),
      output: pipe.read, timer: timer, capture: HookOutput(limit: outputLimit))
    hooks[pid] = hook
    do throws(SystemError) {
      try timer.arm(after: timeout)
      try loop.register(hook.exit, interest: .readable) { [weak self, weak hook] _ in
        guard let self, let hook else { return }
        self.exited(hook)
      }
      try watchOutput(hook)
      try loop.register(timer.descriptor, interest: .readable) { [weak self, weak hook] _ in
        guard let self, let hook else { return }
        self.timerFired(hook)
      }
    } catch {
      HookProcess.signalGroup(pid, SIGKILL)
      var status: Int32 = 0
      _ = try? retryingEINTR("waitpid(\(pid))") { waitpid(pid, &status, 0) }
      hook.status = ExitStatus(waitStatus: status)
      close(output: hook)
      release(hook)
      throw error
    }
    return hook
  }

  /// The pidfd is readable: the leader exited.
  private func exited(_ hook: Hook) {
    guard hook.status == nil, let status = HookProcess.reap(hook.pid) else { return }
    hook.status = status
    loop.unregister(hook.exit)
    hook.exit.close()
    readOutput(hook)
    finishIfDone(hook)
  }

  private func watchOutput(_ hook: Hook) throws(SystemError) {
    guard let output = hook.output else { return }
    try loop.register(output, interest: .readable) { [weak self, weak hook] _ in
      guard let self, let hook else { return }
      self.readOutput(hook)
      self.finishIfDone(hook)
    }
  }

  /// Reads what the pipe holds now (a bounded amount per call: level-triggered epoll calls
  /// again, so a hook writing without pause cannot starve the loop); closes it at its end.
  /// Over budget, the pipe is left alone for `floodPause`.
  private func readOutput(_ hook: Hook) {
    defer { throttleIfFlooding(hook) }
    guard let output = hook.output else { return }
    for _ in 0..<16 {
      let chunk: [UInt8]
      do {
        chunk = try output.readSome(maxCount: 4096)
      } catch {
        if error.isWouldBlock { return }
        log(.warning, "hook \(hook.name): reading its output: \(error)")
        close(output: hook)
        return
      }
      if chunk.isEmpty {
        close(output: hook)
        return
      }
      for line in hook.capture.append(chunk) { logLine(hook, line) }
    }
  }

  /// Stops watching a flooding hook's pipe until its throttle timer fires.
  private func throttleIfFlooding(_ hook: Hook) {
    guard hook.capture.dropped > 0, let output = hook.output, !hook.paused else { return }
    do throws(SystemError) {
      let timer: TimerFd
      if let made = hook.throttle {
        timer = made
      } else {
        timer = try TimerFd(clock: .monotonic)
        try loop.register(timer.descriptor, interest: .readable) { [weak self, weak hook] _ in
          guard let self, let hook else { return }
          self.resumeOutput(hook)
        }
        hook.throttle = timer
      }
      try timer.arm(after: HookRunner.floodPause)
      loop.unregister(output)
      hook.paused = true
    } catch {
      // No timer: the pipe stays watched, busier but with nothing lost track of.
      log(.debug, "hook \(hook.name): cannot throttle its output: \(error)")
    }
  }

  private func resumeOutput(_ hook: Hook) {
    _ = try? hook.throttle?.read()
    guard hook.paused else { return }
    hook.paused = false
    do throws(SystemError) {
      try watchOutput(hook)
    } catch {
      close(output: hook)
    }
    readOutput(hook)
    finishIfDone(hook)
  }

  private func close(output hook: Hook) {
    guard let output = hook.output else { return }
    if let last = hook.capture.finish() { logLine(hook, last) }
    loop.unregister(output)
    output.close()
    hook.output = nil
  }

  private func logLine(_ hook: Hook, _ line: String) {
    log(.info, "hook \(hook.name) output: \(line)")
  }

  private func timerFired(_ hook: Hook) {
    guard case .expired = try? hook.timer.read() else { return }
    let timeout = DurationText.format(hook.timeout)
    let grace = DurationText.format(killGrace)
    switch hook.stage {
    case .running:
      hook.timedOut = true
      hook.stage = .terminating
      if hook.status == nil {
        log(.warning, "hook \(hook.name): still running after \(timeout); terminating it")
      } else {
        log(
          .warning,
          "hook \(hook.name): exited, but processes it started still hold its output "
            + "after \(timeout); terminating them")
      }
      HookProcess.signalGroup(hook.pid, SIGTERM)
      try? hook.timer.arm(after: killGrace)
    case .terminating:
      hook.stage = .killing
      if HookProcess.signalGroup(hook.pid, SIGKILL) {
        log(.warning, "hook \(hook.name): still there \(grace) after SIGTERM; killed it")
      }
      try? hook.timer.arm(after: killGrace)
    case .killing:
      // SIGKILL cannot be refused: what still holds the pipe left the process group.
      close(output: hook)
      finishIfDone(hook)
    }
  }

  private func finishIfDone(_ hook: Hook) {
    guard hook.status != nil, hook.output == nil else { return }
    finish(hook)
  }

  private func finish(_ hook: Hook) {
    guard let status = hook.status else { return }
    release(hook)
    if hook.capture.dropped > 0 {
      log(
        .notice,
        "hook \(hook.name): \(hook.capture.dropped) more bytes of output were not logged")
    }
    if hook.timedOut {
      log(
        .warning,
        "hook \(hook.name): timed out after \(DurationText.format(hook.timeout)), \(status)")
    } else if status.isSuccess {
      log(.info, "hook \(hook.name): done")
    } else {
      log(.warning, "hook \(hook.name): \(status)")
    }
    onFinish?(HookResult(name: hook.name, pid: hook.pid, status: status, timedOut: hook.timedOut))
  }

  /// Forgets the hook: its descriptors leave the loop and are closed.
  private func release(_ hook: Hook) {
    hooks[hook.pid] = nil
    loop.unregister(hook.timer.descriptor)
    hook.timer.descriptor.close()
    loop.unregister(hook.exit)
    hook.exit.close()
    if let throttle = hook.throttle {
      loop.unregister(throttle.descriptor)
      throttle.descriptor.close()
    }
  }

  /// Reaps the leaders that exit within `limit` (polling every 10 ms).
  private func waitForLeaders(upTo limit: Duration) {
    let deadline = Clock.monotonic.now() + limit
    while true {
      for hook in hooks.values where hook.status == nil {
        hook.status = HookProcess.reap(hook.pid)
      }
      guard hooks.values.contains(where: { $0.status == nil }),
        Clock.monotonic.now() < deadline
      else { return }
      usleep(10_000)
    }
  }
}
