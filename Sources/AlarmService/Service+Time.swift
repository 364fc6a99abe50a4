import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The realtime timer: armed at the wake plan's deadline, and what its expiry does.
extension Service {

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
      watchClock(now: now)
      if wakePlan?.isPreparePoint == true { prepareNextRing(now: now) }
    }
    remindersReached(now: now)
    settle(engine.advance(to: now), now: now)
  }

  func clockWasSet(now: Instant) {
    let jump = clockJump(now: now)
    let by = jump.map { ": jumped \(ClockTrust.jumpText($0))" } ?? ""
    log.notice("the clock was set\(by); now \(ISO8601Text.format(now, in: zone))")
    if let jump { clockWatch.lastJump = jump }
    ring.invalidate()
    watchClock(now: now)
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

  func arm(now: Instant) throws(SystemError) {
    let plan = engine.wakePlan(
      now: now, prepared: ring.prepared, streamLead: config.audio.streamLead
    )
    .waking(at: reminders.nextDue(after: now, zone: zone))
    wakePlan = plan
    if plan.prepareNow != nil { prepareNextRing(now: now) }
    // To the millisecond: a snooze end counted from a press is not a whole second.
    try alarmTimer.arm(
      at: .milliseconds(plan.deadline.totalMilliseconds), cancelOnClockChange: true)
    planAudioCheck(now: now)
  }

  func prepareNextRing(now: Instant) {
    guard let f = engine.firingToPrepare(now: now, streamLead: config.audio.streamLead),
      let alarm = engine.alarms[f.alarmID]
    else {
      return
    }
    let sound = chooseSound(alarm, firing: f.at)
    speech.silence()  // a prepared ring holds its device open from now on
    ring.prepare(
      f, sound: sound, request: ringRequest(alarm, remaining: alarm.ringFor, sound: sound))
    if alarm.announce { announcer.prepare(announcement(alarm), firstAt: f.at + alarm.ramp) }
  }
}
