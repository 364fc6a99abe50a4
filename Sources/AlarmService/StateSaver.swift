import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Writes the state file on the service's loop: coalesced, retried, and awaited.
///
/// Coalesced: at most one write per `minInterval`. A change in a quiet moment is written at
/// once; changes that follow within the interval are written together at its end (a client
/// looping skip/unskip once made thousands of renames and fsyncs a second on an SD card).
/// Awaited: `whenSaved` runs its callback once what was asked for has been written (or the
/// write failed), so a control reply can say ok only after the change is on disk; a ring
/// from a button never waits. Retried: a failed write (disk full, read-only) is tried
/// again every `retryInterval` while the service goes on.
final class StateSaver {
  /// The shortest time between two writes.
  let minInterval: Duration
  /// How long a failed write waits before it is tried again.
  let retryInterval: Duration
  var path: String { store.path }
  /// Set while the file on disk is behind the engine's state (a write failed).
  private(set) var failing = false
  /// Files written since start (renames of a new state file over the old one).
  private(set) var writeCount = 0
  /// Whether a state is waiting for its write.
  var isPending: Bool { pending != nil }

  private var store: StateStore
  private let log: Logger
  private let loop: EventLoop
  /// CLOCK_MONOTONIC: the coalescing deadline, or the retry.
  private let timer: TimerFd
  /// When `timer` expires (CLOCK_MONOTONIC), nil while disarmed.
  private var timerDeadline: Duration?
  private var pending: ServiceState?
  private var pendingForce = false
  /// When the file was last written or a write failed (CLOCK_MONOTONIC).
  private var lastAttempt: Duration?
  private var waiters: [() -> Void] = []

  init(
    directory: String, loop: EventLoop, log: Logger, minInterval: Duration = .milliseconds(250),
    retryInterval: Duration = .seconds(30)
  ) throws(SystemError) {
    store = StateStore(directory: directory)
    self.loop = loop
    self.log = log
    self.minInterval = minInterval
    self.retryInterval = retryInterval
    timer = try TimerFd(clock: .monotonic)
    try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
      _ = try? self.timer.read()
      self.timerDeadline = nil
      self.write()
    }
  }

  /// The saved state, or a fresh one (why is logged).
  func load() -> ServiceState {
    store.load(log: { [log] in log.log($0, $1) })
  }

  /// Asks for `state` to be written: at once when the last write is `minInterval` old,
  /// else at the end of the interval (with whatever is asked for until then).
  func save(_ state: ServiceState, force: Bool = false) {
    pending = state
    pendingForce = pendingForce || force
    let now = Clock.monotonic.now()
    guard let last = lastAttempt, now - last < minInterval else {
      write()
      return
    }
    // An armed timer that fires sooner (the coalescing deadline) stands; a retry 30 s away
    // does not: a new change is tried at the interval's end.
    let wait = minInterval - (now - last)
    if let deadline = timerDeadline, deadline <= now + wait { return }
    arm(after: wait, now: now)
  }

  /// Runs `done` once the state asked for so far is written (or its write failed); at
  /// once when nothing waits.
  func whenSaved(_ done: @escaping () -> Void) {
    if pending == nil { done() } else { waiters.append(done) }
  }

  /// Writes what is pending now, ignoring the interval (at shutdown).
  func flush(_ state: ServiceState) {
    pending = state
    pendingForce = true
    write()
  }

  private func write() {
    guard let state = pending else { return }
    do throws(SystemError) {
      if try store.save(state, force: pendingForce || failing) {
        writeCount += 1
        lastAttempt = Clock.monotonic.now()
      }
      if failing { log.notice("state file written again: \(store.path)") }
      failing = false
      pending = nil
      pendingForce = false
      try? timer.disarm()
      timerDeadline = nil
    } catch {
      if !failing {
        log.error(
          "cannot write the state file: \(error); retrying every "
            + DurationText.spoken(retryInterval))
      }
      failing = true
      let now = Clock.monotonic.now()
      lastAttempt = now
      arm(after: retryInterval, now: now)
    }
    // The attempt is over: replies go out (a failed write shows in `status`).
    let done = waiters
    waiters = []
    for d in done { d() }
  }

  private func arm(after wait: Duration, now: Duration) {
    do throws(SystemError) {
      try timer.arm(after: wait)
      timerDeadline = now + wait
    } catch {
      // Without the timer the write happens with the next change or at shutdown.
      log.warning("cannot arm the state file's timer: \(error)")
    }
  }
}
