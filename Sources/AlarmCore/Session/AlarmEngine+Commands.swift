/// Commands from people (button, keys, control socket) and config reloads.
/// Each first brings the engine up to `now`, so a command that arrives just
/// after a deadline sees the state the deadline left.

extension AlarmEngine {
  /// Silences the ringing alarm for its snooze length, until `now` plus that
  /// length to the millisecond. Refused (and logged, the ring goes on) when
  /// snooze is off for it (`snooze-off`) or its session has used up
  /// `max_snoozes` (`snooze-limit`); `not-ringing` when nothing rings,
  /// including while already snoozed.
  public mutating func snooze(now: Instant) -> CommandResult {
    command(now: now) { engine, out in
      guard var s = engine.state.session, let alarm = engine.alarms[s.alarmID] else {
        return CommandResult(actions: [], error: ControlError(.notRinging, "no alarm is ringing"))
      }
      guard !s.isSnoozed else {
        return CommandResult(
          actions: [], error: ControlError(.notRinging, "'\(s.alarmID)' is already snoozed"))
      }
      guard let length = alarm.snooze, length > .zero else {
        out.append(
          .log(.notice, "snooze refused: snooze is off for '\(alarm.id)'; it keeps ringing"))
        return CommandResult(
          actions: [], error: ControlError(.snoozeOff, "snooze is off for this alarm"))
      }
      if let limit = alarm.maxSnoozes, s.snoozeCount >= limit {
        let why =
          limit == 0
          ? "snooze is not allowed for '\(alarm.id)' (max_snoozes = 0)"
          : "'\(alarm.id)' was snoozed \(s.snoozeCount) time\(s.snoozeCount == 1 ? "" : "s") "
            + "(max_snoozes = \(limit))"
        out.append(.log(.notice, "snooze refused: \(why); it keeps ringing until stopped"))
        return CommandResult(
          actions: [], error: ControlError(.snoozeLimit, "\(why); only stop ends it"))
      }
      let until = now + length
      s.snoozeUntil = until
      s.snoozeCount += 1
      engine.state.session = s
      if engine.soundPlaying {
        out.append(.stopSound)
        engine.soundPlaying = false
      }
      engine.record(.snoozed, alarm.id, firing: s.firing, at: now)
      out.append(
        .hook(HookCall(event: .snooze, alarmID: alarm.id, label: alarm.label, firing: s.firing)))
      out.append(
        .log(.notice, "'\(alarm.id)' snoozed for \(DurationText.spoken(length)) (\(s.snoozeCount))")
      )
      return CommandResult(actions: [], until: until)
    }
  }

  /// Ends the session, ringing or snoozed.
  public mutating func stop(now: Instant) -> CommandResult {
    command(now: now) { engine, out in
      guard let s = engine.state.session else {
        return CommandResult(
          actions: [], error: ControlError(.notRinging, "no alarm is ringing or snoozed"))
      }
      out.append(.log(.notice, "'\(s.alarmID)' stopped"))
      engine.endSession(.stopped, at: now, &out)
      return CommandResult(actions: [])
    }
  }

  /// Rings an alarm now, for testing (disabled alarms too). A normal session:
  /// it takes over any current one, snoozes and silences as usual, and does
  /// not use up a one-off.
  public mutating func ring(_ id: String, now: Instant) -> CommandResult {
    command(now: now) { engine, out in
      guard let alarm = engine.alarms[id] else {
        return CommandResult(actions: [], error: engine.unknownAlarm(id))
      }
      out.append(.log(.notice, "test ring of '\(id)'"))
      engine.startSession(alarm, firing: now, periodStart: now, now: now, test: true, &out)
      return CommandResult(actions: [])
    }
  }

  /// Skips the alarm's next occurrence (its local date goes in
  /// `marks.skipNext`). Asking again for the same occurrence changes nothing.
  public mutating func skip(_ id: String, now: Instant) -> CommandResult {
    command(now: now) { engine, out in
      guard let alarm = engine.alarms[id] else {
        return CommandResult(actions: [], error: engine.unknownAlarm(id))
      }
      let none = ControlError(.nothingToSkip, "alarm '\(id)' has no upcoming occurrence to skip")
      guard alarm.enabled else { return CommandResult(actions: [], error: none) }
      var marks = engine.state.marks
      marks.skipNext[id] = nil
      guard let next = engine.source.next(of: id, after: now, marks: marks) else {
        return CommandResult(actions: [], error: none)
      }
      if engine.state.marks.skipNext[id] != next.date {
        engine.state.marks.skipNext[id] = next.date
        out.append(.log(.notice, "'\(id)' of \(next.date) \(next.time) will be skipped"))
      }
      return CommandResult(actions: [], firing: next)
    }
  }

  /// Takes back a skip; `firing` is then the alarm's next occurrence.
  public mutating func unskip(_ id: String, now: Instant) -> CommandResult {
    command(now: now) { engine, out in
      guard engine.alarms[id] != nil else {
        return CommandResult(actions: [], error: engine.unknownAlarm(id))
      }
      guard let date = engine.state.marks.skipNext.removeValue(forKey: id) else {
        return CommandResult(
          actions: [], error: ControlError(.notSkipped, "no occurrence of '\(id)' is skipped"))
      }
      out.append(.log(.notice, "'\(id)' of \(date) will ring after all"))
      let next = engine.source.next(of: id, after: now, marks: engine.state.marks)
      return CommandResult(actions: [], firing: next)
    }
  }

  /// Puts a new (already validated) config in force: a session whose alarm
  /// was deleted or disabled stops; new one-offs are armed at `now`, edited
  /// ones (time or date changed) re-armed; marks of removed alarms dropped.
  /// Firings due before `now` are dealt with under the old config first.
  public mutating func reload(alarms: [Alarm], source: any FiringSource, now: Instant)
    -> [EngineAction]
  {
    var out: [EngineAction] = []
    let before = state
    step(to: now, &out)
    self.alarms = Dictionary(alarms.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    self.source = source
    reconcile(now: now, &out)
    step(to: now, &out)
    finish(now: now, before: before, &out)
    return out
  }

  /// `unknown-alarm`, with a suggestion when the id looks like a typo.
  func unknownAlarm(_ id: String) -> ControlError {
    var message = "no alarm with id \(singleQuoted(id))"
    if let guess = closestMatch(to: id, in: alarms.keys) {
      message += " (did you mean '\(guess)'?)"
    }
    return ControlError(.unknownAlarm, message)
  }

  private mutating func command(
    now: Instant, _ body: (inout AlarmEngine, inout [EngineAction]) -> CommandResult
  ) -> CommandResult {
    var out: [EngineAction] = []
    let before = state
    step(to: now, &out)
    var result = body(&self, &out)
    finish(now: now, before: before, &out)
    result.actions = out
    return result
  }
}
