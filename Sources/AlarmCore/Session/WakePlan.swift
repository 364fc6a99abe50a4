/// When the service's realtime timer is armed next, and why: the pure half of the
/// service's timing, beside `AlarmEngine.nextWake`.
///
/// The deadline is the engine's next wake-up, or a little earlier (`prepareLead`) so the
/// sound and the device of the next firing are opened before it: a *prepare point*. With
/// nothing scheduled the timer is still armed `idleHorizon` ahead, so that cancel-on-set
/// keeps reporting clock changes.
public struct WakePlan: Sendable, Hashable {
  /// How long before a firing the sound and the device are opened.
  public static let prepareLead: Duration = .seconds(2)
  /// How far ahead the timer is armed when nothing is scheduled.
  public static let idleHorizon: Duration = .seconds(366 * 86_400)

  /// The instant the realtime timer is armed at.
  public var deadline: Instant
  /// Set when `deadline` is the prepare point of this firing (else an engine wake-up).
  public var prepare: Firing?
  /// A firing whose prepare point has already passed: prepare it now.
  public var prepareNow: Firing?

  /// Whether the deadline is a prepare point.
  public var isPreparePoint: Bool { prepare != nil }

  /// This plan, woken earlier at `other` when that comes first (a reminder's due time):
  /// then the deadline is not a prepare point, whose time comes at a later wake-up.
  public func waking(at other: Instant?) -> WakePlan {
    guard let other, other < deadline else { return self }
    return WakePlan(deadline: other, prepareNow: prepareNow)
  }

  /// A plan armed at `deadline`.
  public init(deadline: Instant, prepare: Firing? = nil, prepareNow: Firing? = nil) {
    self.deadline = deadline
    self.prepare = prepare
    self.prepareNow = prepareNow
  }
}

extension AlarmEngine {
  /// The timer plan at `now` (ask after `advance(to: now)`). `prepared`: the firing the
  /// ringer was already prepared for, which gets no second prepare point. While sound
  /// plays nothing is prepared: the ringer is busy.
  public func wakePlan(
    now: Instant, prepared: Firing?, streamLead: Duration = AudioConfig.defaultStreamLead
  ) -> WakePlan {
    var plan = WakePlan(deadline: nextWake(now: now) ?? now + WakePlan.idleHorizon)
    guard let f = upcoming(after: now, count: 1).first, prepared != f, !soundPlaying else {
      return plan
    }
    let at = f.at - prepareLead(for: f, streamLead: streamLead)
    if at > now && at < plan.deadline {
      plan.deadline = at
      plan.prepare = f
    } else if at <= now && f.at > now {
      plan.prepareNow = f
    }
    return plan
  }

  /// The firing to prepare at `now` (a prepare point was reached): the next one, if it is
  /// no further than its lead (`prepareLead(for:streamLead:)`) and a second away and
  /// nothing plays.
  public func firingToPrepare(
    now: Instant, streamLead: Duration = AudioConfig.defaultStreamLead
  ) -> Firing? {
    guard !soundPlaying, let f = upcoming(after: now, count: 1).first,
      alarms[f.alarmID] != nil,
      f.at - now <= prepareLead(for: f, streamLead: streamLead) + .seconds(1)
    else { return nil }
    return f
  }

  /// How long before `f` its ring is prepared: `WakePlan.prepareLead` for a file, the
  /// config's `stream_lead` for a stream (connecting and buffering take seconds).
  public func prepareLead(for f: Firing, streamLead: Duration) -> Duration {
    alarms[f.alarmID]?.isStream == true
      ? max(WakePlan.prepareLead, streamLead) : WakePlan.prepareLead
  }
}
