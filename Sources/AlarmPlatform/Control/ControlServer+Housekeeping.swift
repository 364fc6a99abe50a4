/// Idle timeouts, room at the cap, and the per-client handler-time budget: all on one
/// monotonic timer, which is disarmed while nobody is connected (an idle service never
/// wakes up) and otherwise fires only at the earliest deadline.
extension ControlServer {
  /// Closes the connection idle the longest to make room for a newcomer; false if none is
  /// idle (every client is busy: the newcomer is refused instead).
  func evictOldestIdle() -> Bool {
    var oldest: ControlConnection?
    for c in connections.values where c.isIdle && !c.closeWhenFlushed {
      if oldest == nil || c.lastActive < oldest!.lastActive { oldest = c }
    }
    guard let oldest else { return false }
    say(evicted, to: oldest)
    return true
  }

  /// Charges a request's handler time to its client's budget, parking the client (not read
  /// nor answered) until the budget is back above zero.
  func charge(_ c: ControlConnection, began: Duration, ended: Duration) {
    let rate = limits.handlerTimePerSecond
    let earned = (began - c.creditStamp) * (rate / .seconds(1))
    c.credit = min(limits.handlerTimeBurst, c.credit + earned) - (ended - began)
    c.creditStamp = began
    guard c.credit < .zero, rate > .zero else { return }
    let until = ended + .seconds(1) * ((.zero - c.credit) / rate)
    c.parkedUntil = until
    armTimer(at: until)
  }

  /// Arms the timer for `deadline` unless it already fires sooner.
  func armTimer(at deadline: Duration) {
    if let current = timerDeadline, current <= deadline { return }
    guard (try? timer.arm(at: deadline)) != nil else { return }
    timerDeadline = deadline
  }

  func disarmTimer() {
    guard timerDeadline != nil else { return }
    try? timer.disarm()
    timerDeadline = nil
  }

  func timerFired() {
    _ = try? timer.read()
    timerDeadline = nil
    let now = TimerFd.Clock.monotonic.now()
    var next: Duration?
    for c in Array(connections.values) {
      if let until = c.parkedUntil {
        if until <= now {
          c.parkedUntil = nil
          arrangeNext(c)
          flush(c)
        } else {
          next = min(next ?? until, until)
        }
      }
      guard !c.isDropped else { continue }
      let idleEnd = c.lastActive + limits.idleTimeout
      if idleEnd <= now && c.isIdle && c.parkedUntil == nil {
        say(idleTimedOut, to: c)
      } else {
        // A busy client is looked at again a timeout later.
        let end = idleEnd <= now ? now + limits.idleTimeout : idleEnd
        next = min(next ?? end, end)
      }
    }
    if let next { armTimer(at: next) }
  }

  /// Tells an idle client why it is closed, without blocking, and closes it.
  private func say(_ line: [UInt8], to c: ControlConnection) {
    c.isDropped = true
    loop.unregister(c.fd)
    connections[c.fd.rawValue] = nil
    tell(c.fd, line)
    if connections.isEmpty { disarmTimer() }
  }
}
