/// The bridge from control requests to the engine: the service handles
/// `status` and `reload` itself (they need the config and inputs) and hands
/// every other request here. `format` turns instants into the ISO 8601 text
/// of the protocol (the time-zone code's formatter).

extension AlarmEngine {
  /// Performs an engine request and builds its reply. nil for `status` and
  /// `reload`, which the service answers (see `statusParts`).
  public mutating func perform(
    _ request: ControlRequest, now: Instant, format: (Instant) -> String
  ) -> (reply: ControlReply, actions: [EngineAction])? {
    let result: CommandResult
    let payload: ReplyPayload
    switch request {
    case .status, .reload: return nil
    case .next(let count):
      let actions = advance(to: now)
      return (.ok(.next(upcomingFirings(after: now, count: count, format: format))), actions)
    case .snooze:
      result = snooze(now: now)
      payload = .snooze(until: result.until.map(format) ?? "")
    case .stop:
      result = stop(now: now)
      payload = .empty
    case .ring(let id):
      result = ring(id, now: now)
      payload = .empty
    case .skip(let id):
      result = skip(id, now: now)
      payload = .skip(
        SkipInfo(
          id: id, date: result.firing.map(\.date.description),
          at: result.firing.map { format($0.at) }))
    case .unskip(let id):
      result = unskip(id, now: now)
      payload = .skip(SkipInfo(id: id, date: nil, at: result.firing.map { format($0.at) }))
    }
    if let error = result.error { return (.failure(error), result.actions) }
    return (.ok(payload), result.actions)
  }

  /// The engine's parts of a `status` reply: session, next firings, history.
  public func statusParts(now: Instant, nextCount: Int = 5, format: (Instant) -> String) -> (
    session: SessionStatus?, next: [UpcomingFiring], history: [HistoryItem]
  ) {
    var session: SessionStatus? = nil
    if let s = state.session, let until = sessionDeadline {
      session = SessionStatus(
        id: s.alarmID, label: alarms[s.alarmID]?.label, state: s.isSnoozed ? .snoozed : .ringing,
        until: format(until), snoozes: s.snoozeCount, maxSnoozes: alarms[s.alarmID]?.maxSnoozes)
    }
    let history = recentHistory(now: now).map {
      HistoryItem(
        kind: $0.kind, id: $0.alarmID, label: $0.label, firing: format($0.firing),
        at: format($0.at),
        more: $0.more)
    }
    return (session, upcomingFirings(after: now, count: nextCount, format: format), history)
  }

  /// `upcoming` as protocol entries.
  public func upcomingFirings(after now: Instant, count: Int, format: (Instant) -> String)
    -> [UpcomingFiring]
  {
    UpcomingFiring.list(
      alarms: alarms, source: source, after: now, count: count, marks: state.marks,
      format: format)
  }
}
