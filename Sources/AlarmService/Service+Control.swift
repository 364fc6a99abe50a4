import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Where a control request came from; its reply goes back the same way.
enum RequestOrigin {
  /// A client of the control socket: answered on its connection.
  case socket(ControlResponder)
  /// A key on the terminal: a refusal is shown on the status line.
  case terminal
  /// A button or input-device press (from `source`): logged, with its latency.
  case press(InputPress, source: String)
}

/// The control path: socket requests, terminal keys and presses all become a
/// `ControlRequest` handled by `dispatch(_:from:)`.
extension Service {
  /// One request line from the socket (raw bytes: invalid UTF-8 reaches the decoder as it
  /// came and is answered `bad-json`).
  func socketRequest(_ line: ArraySlice<UInt8>, _ responder: ControlResponder) {
    // Serving it maps code back in: released a while after (at most one re-arm per request).
    releasePagesSoon(after: Service.pageReleaseAfterRequest)
    do throws(ControlError) {
      dispatch(try ControlRequest(line: line), from: .socket(responder))
    } catch {
      responder.reply(Array(ControlReply.failure(error).encodedLine().dropLast()))
    }
  }

  /// The one dispatcher: performs `request` and answers its origin. A socket reply to a
  /// request that changed the state waits until the state file has it (the write is
  /// coalesced, `StateSaver`); presses and keys never wait for the disk.
  func dispatch(_ request: ControlRequest, from origin: RequestOrigin) {
    let reply = answer(request)
    switch origin {
    case .socket(let responder):
      let bytes = Array(reply.encodedLine().dropLast())
      switch request {
      case .status, .next:
        // Read-only: at most the catch-up marks moved, which need not wait for the disk.
        responder.reply(bytes)
      default:
        saver.whenSaved { responder.reply(bytes) }
      }
    case .terminal:
      if case .failure(let e) = reply { terminal?.show("\(e.message)") }
    case .press(let press, let source):
      // From the event's kernel timestamp (the threshold, for a long press) to the PCM
      // dropped: `answer` returns after the ringer's stop.
      let now = PressInputs.monotonicNanoseconds()
      let late = Duration.nanoseconds(Int64(clamping: now &- min(now, press.timestampNanoseconds)))
      let kind = press.kind.rawValue
      if case .failure(let e) = reply {
        log.info("\(source): \(kind) press: \(request.command) refused: \(e.message)")
      } else {
        log.info(
          "\(source): \(kind) press: \(request.command), \(DurationText.milliseconds(late)) after the event"
        )
      }
    }
  }

  /// Performs a request at the clock's now and builds its reply.
  func answer(_ request: ControlRequest) -> ControlReply {
    let now = clock.now()
    switch request {
    case .status:
      settle(engine.advance(to: now), now: now)
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
      let ringing = engine.state.session?.alarmID
      guard
        let (reply, actions) = engine.perform(
          request, now: now, format: { ISO8601Text.format($0, in: zone) })
      else {
        return .failure(ControlError(.internal, "no handler for '\(request.command)'"))
      }
      if case .failure(let e) = reply {
        log.info("\(request.command): refused: \(e.message)")
      }
      settle(actions, now: now)
      if case .stop = request, case .ok = reply, let id = ringing, engine.state.session == nil {
        readTodaysReminders(after: id, now: now)
      }
      return reply
    }
  }

  func statusReport(now: Instant) -> StatusReport {
    let zone = self.zone
    let parts = engine.statusParts(now: now, format: { ISO8601Text.format($0, in: zone) })
    var inputs = [ring.audioStatus]
    if let buzzer = ring.buzzerStatus { inputs.append(buzzer) }
    if let terminal {
      inputs.append(InputStatus(name: "terminal", available: true, detail: terminal.name))
    }
    inputs += self.inputs?.statuses ?? []
    if saver.failing {
      inputs.append(
        InputStatus(name: "state", available: false, detail: "cannot write \(saver.path)"))
    }
    watchClock(now: now)
    var report = StatusReport(
      version: Service.version, config: configs.status,
      clockSynchronized: clockWatch.synchronized,
      session: parts.session.map {
        ring.sessionSound($0, firing: engine.state.session?.firing)
      },
      next: parts.next,
      history: parts.history, inputs: inputs)
    report.clockPlausible = ClockTrust.isPlausible(now)
    report.clockLastJump = clockWatch.lastJump
    report.clockSynchronizedAt = clockWatch.synchronizedAt.map { ISO8601Text.format($0, in: zone) }
    return report
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
      terminal = try TerminalKeys(loop: loop) { [unowned self] key in
        self.dispatch(key == .snooze ? .snooze : .stop, from: .terminal)
      }
    } catch {
      log.warning("terminal keys unavailable: \(error)")
    }
  }
}
