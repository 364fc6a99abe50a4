import AlarmCore

/// A piezo buzzer on a GPIO output line, beeping in bursts on the event loop's timer: the
/// last resort when no sound device opens (`[audio] buzzer`).
///
/// Driven by a monotonic timerfd registered on the loop, one step at a time (never a
/// sleeping thread): the loop stays free for a press or a command between two steps.
public final class Buzzer {
  /// The beeping: `beeps` beeps of `on`, `off` between them, then `pause` before the next
  /// burst. A sleeper notices a burst more than a steady tone.
  public struct Pattern: Sendable, Hashable {
    public var beeps: Int
    public var on: Duration
    public var off: Duration
    public var pause: Duration

    public init(
      beeps: Int = 4, on: Duration = .milliseconds(100), off: Duration = .milliseconds(100),
      pause: Duration = .milliseconds(600)
    ) {
      self.beeps = max(1, beeps)
      self.on = on
      self.off = off
      self.pause = pause
    }

    /// One burst as (line value, how long) steps: on, off, ..., on, pause.
    public var steps: [(high: Bool, length: Duration)] {
      var out: [(high: Bool, length: Duration)] = []
      for i in 0..<beeps {
        out.append((true, on))
        out.append((false, i + 1 < beeps ? off : pause))
      }
      return out
    }
  }

  /// The line it drives.
  public let line: GpioOutputLine
  public let pattern: Pattern
  private let loop: EventLoop
  private let timer: TimerFd
  private let steps: [(high: Bool, length: Duration)]
  private let log: (LogLevel, String) -> Void
  private var step = 0
  private var failed = false
  /// Whether it is beeping (from `start()` until `stop()`).
  public private(set) var isSounding = false

  /// A silent buzzer on `line`, its timer registered on `loop`.
  public init(
    line: GpioOutputLine, loop: EventLoop, pattern: Pattern = Pattern(),
    log: @escaping (LogLevel, String) -> Void
  ) throws(SystemError) {
    self.line = line
    self.loop = loop
    self.pattern = pattern
    self.steps = pattern.steps
    self.log = log
    timer = try TimerFd(clock: .monotonic)
    try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
      self.timerFired()
    }
  }

  /// Starts beeping (the first beep at once); nothing if it already beeps.
  public func start() {
    guard !isSounding else { return }
    isSounding = true
    failed = false
    step = 0
    apply()
  }

  /// Stops beeping and drives the line low.
  public func stop() {
    guard isSounding else { return }
    isSounding = false
    try? timer.disarm()
    set(false)
  }

  /// Stops and unregisters the timer; the line is released when the object goes.
  public func close() {
    stop()
    loop.unregister(timer.descriptor)
  }

  private func timerFired() {
    _ = try? timer.read()
    guard isSounding else { return }
    step = (step + 1) % steps.count
    apply()
  }

  private func apply() {
    let s = steps[step]
    set(s.high)
    do throws(SystemError) {
      try timer.arm(after: s.length)
    } catch {
      log(.error, "buzzer: cannot arm its timer: \(error)")
      isSounding = false
    }
  }

  private func set(_ high: Bool) {
    do throws(SystemError) {
      try line.set(high)
    } catch {
      // Once per start: a line that fails fails at every step.
      if !failed { log(.error, "buzzer: cannot drive \(line.logText): \(error)") }
      failed = true
    }
  }
}
