/// What `alarmclock status` prints for people, and the short form of an instant that
/// `status`, `snooze`, `skip` and `unskip` print. Pure: a function of the reply.
public enum StatusText {
  /// The report as lines: the config, the clock, the session, the next alarms, the last
  /// 12 hours and the inputs.
  public static func render(_ r: StatusReport) -> String {
    var lines: [String] = []
    lines.append(
      "alarmclock \(r.version), config \(r.config.path): "
        + (r.config.ok ? "ok" : "has errors, the last good config is in force"))
    for e in r.config.errors { lines.append("  \(e)") }
    switch r.clockSynchronized {
    case true?: lines.append("clock: synchronised")
    case false?:
      lines.append("clock: not synchronised yet (alarms follow the clock as it is now)")
    case nil: lines.append("clock: synchronisation unknown")
    }
    if r.clockPlausible == false {
      lines.append(
        "  the clock is wrong: earlier than this alarmclock's release (\(AlarmclockVersion.releaseDate))"
      )
    }
    if let at = r.clockSynchronizedAt { lines.append("  synchronised at \(instant(at))") }
    if let jump = r.clockLastJump {
      lines.append("  last set: jumped \(ClockTrust.jumpText(jump))")
    }
    if let s = r.session {
      let name = s.label.map { "\($0) (\(s.id))" } ?? s.id
      var snoozes = s.snoozes == 0 ? "" : ", snoozed \(s.snoozes) time\(s.snoozes == 1 ? "" : "s")"
      if let limit = s.maxSnoozes { snoozes += " of \(limit)" }
      if s.snoozeLimitReached && s.state == .ringing {
        snoozes += " (no more snoozes: only stop ends it)"
      }
      switch s.state {
      case .ringing: lines.append("ringing: \(name) until \(instant(s.until))\(snoozes)")
      case .snoozed: lines.append("snoozed: \(name) rings again at \(instant(s.until))\(snoozes)")
      }
      if let problem = s.soundProblem {
        lines.append("  sound: the fallback tone (\(problem))")
      } else if let sound = s.sound {
        lines.append("  sound: \(sound)")
      }
      if s.escalated == true { lines.append("  escalated: volume raised") }
    }
    if r.next.isEmpty {
      lines.append("next: no alarm is set")
    } else {
      lines.append("next:")
      for f in r.next { lines.append("  \(instant(f.at))  \(f.label ?? f.id) (\(f.id))") }
    }
    if !r.history.isEmpty {
      lines.append("last 12 hours:")
      for h in r.history {
        let more = h.more > 0 ? " (and \(h.more) earlier)" : ""
        lines.append(
          "  \(h.kind.rawValue) \(h.label ?? h.id) (\(h.id)) of \(instant(h.firing))\(more)")
      }
    }
    lines.append("inputs:")
    for i in r.inputs {
      lines.append("  \(i.name): \(i.available ? "" : "unavailable: ")\(i.detail)")
    }
    return lines.joined(separator: "\n")
  }

  /// `2026-12-07T06:45:00+01:00` as `2026-12-07 06:45` (seconds kept when not zero);
  /// anything else as it is.
  public static func instant(_ iso: String) -> String {
    let chars = Array(iso)
    guard chars.count >= 19, chars[10] == "T" else { return iso }
    let seconds = String(chars[17..<19])
    let end = seconds == "00" ? 16 : 19
    return String(chars[0..<10]) + " " + String(chars[11..<end])
  }
}
