import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The control socket's requests, the terminal's keys and `status`.
extension Service {
  /// One request line in, one reply line out (docs/protocol.md), both as bytes: invalid
  /// UTF-8 reaches the decoder as it came and is answered `bad-json`.
  func handleRequest(_ line: ArraySlice<UInt8>) -> [UInt8] {
    let reply: ControlReply
    do throws(ControlError) {
      reply = answer(try ControlRequest(line: line))
    } catch {
      reply = .failure(error)
    }
    return reply.encodedLine().dropLast()
  }

  func answer(_ request: ControlRequest) -> ControlReply {
    let now = currentInstant()
    switch request {
    case .status:
      perform(engine.advance(to: now))
      rearm(now: now)
      return .ok(.status(statusReport(now: now)))
    case .reload:
      let outcome = reloadConfig(reason: "reload command", force: true)
      if case .rejected = outcome {} else if configs.errors.isEmpty { return .ok(.empty) }
      return .failure(
        ControlError(
          .configInvalid, "\(paths.config) has errors; the last good config stays in force",
          details: configs.errors))
    default:
      let zone = self.zone
      guard
        let (reply, actions) = engine.perform(
          request, now: now, format: { ISO8601Text.format($0, in: zone) })
      else {
        return .failure(ControlError(.internal, "no handler for '\(request.command)'"))
      }
      if case .failure(let e) = reply {
        log.info("\(request.command): refused: \(e.message)")
      }
      perform(actions)
      rearm(now: now)
      return reply
    }
  }

  /// A key pressed on the terminal.
  func terminalKey(_ key: TerminalKeys.Key) {
    let reply = answer(key == .snooze ? .snooze : .stop)
    if case .failure(let e) = reply { terminal?.show("\(e.message)") }
  }

  func statusReport(now: Instant) -> StatusReport {
    let zone = self.zone
    let parts = engine.statusParts(now: now, format: { ISO8601Text.format($0, in: zone) })
    var inputs = [audioStatus]
    if let terminal {
      inputs.append(InputStatus(name: "terminal", available: true, detail: terminal.name))
    }
    inputs += self.inputs?.statuses ?? []
    if saveFailing {
      inputs.append(
        InputStatus(name: "state", available: false, detail: "cannot write \(store.path)"))
    }
    return StatusReport(
      version: Service.version, config: configs.status,
      clockSynchronized: ClockSync.isSynchronized(), session: parts.session, next: parts.next,
      history: parts.history, inputs: inputs)
  }

  /// The terminal's one line: the ringing alarm, or the next one.
  func statusLine(now: Instant) -> String {
    if let s = engine.state.session, let until = engine.sessionDeadline {
      let label = engine.alarms[s.alarmID]?.label ?? s.alarmID
      let local = zone.local(at: until)
      if s.isSnoozed {
        return "snoozed: \(label) rings again at \(local.time) (Enter or x stops)"
      }
      return "ringing: \(label) until \(local.time) (space or s snoozes, Enter or x stops)"
    }
    guard let f = engine.upcoming(after: now, count: 1).first else { return "no alarm is set" }
    let local = zone.local(at: f.at)
    let label = engine.alarms[f.alarmID]?.label ?? f.alarmID
    return "next: \(local.date.weekday) \(local.date) \(local.time) \(label)"
  }

  func startTerminal() {
    do throws(SystemError) {
      terminal = try TerminalKeys(loop: loop) { [unowned self] key in self.terminalKey(key) }
    } catch {
      log.warning("terminal keys unavailable: \(error)")
    }
  }
}
