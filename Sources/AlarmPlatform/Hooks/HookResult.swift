#if canImport(Glibc)
  import Glibc
#endif

/// How one hook run ended, for `HookRunner.onFinish`.
public struct HookResult: Sendable, Hashable {
  /// The name it ran under (the event, e.g. `ring`).
  public var name: String
  /// Its process id, which was also its process group id.
  public var pid: Int32
  public var status: ExitStatus
  /// True when the runner killed it for overrunning its timeout.
  public var timedOut: Bool

  public init(name: String, pid: Int32, status: ExitStatus, timedOut: Bool) {
    self.name = name
    self.pid = pid
    self.status = status
    self.timedOut = timedOut
  }
}

/// One running hook and its descriptors.
final class Hook {
  enum Stage { case running, terminating, killing }

  let name: String
  let pid: pid_t
  let timeout: Duration
  /// The pidfd.
  let exit: FileDescriptor
  /// The pipe's read end; nil once it reached its end (or was given up on).
  var output: FileDescriptor?
  let timer: TimerFd
  var capture: HookOutput
  /// Made when the output first floods (`HookRunner.floodPause`).
  var throttle: TimerFd?
  /// True while the flooding output is not watched.
  var paused = false
  /// Set once the leader is reaped.
  var status: ExitStatus?
  var stage = Stage.running
  var timedOut = false

  init(
    name: String, pid: pid_t, timeout: Duration, exit: FileDescriptor, output: FileDescriptor,
    timer: TimerFd, capture: HookOutput
  ) {
    self.name = name
    self.pid = pid
    self.timeout = timeout
    self.exit = exit
    self.output = output
    self.timer = timer
    self.capture = capture
  }
}
