// Fuzz target `state`: arbitrary bytes as the state file, through
// StateCodec.decode (what the service reads at start-up). Beyond "no crash":
// - a rejected file has a one-line, non-empty reason (it goes to the log);
// - an accepted file holds only what the service can act on: version 1,
//   instants in range, plausible alarm ids, history within its limit;
// - an accepted state encodes to bytes that decode to the same state, and
//   encoding is canonical (decode + encode again gives the same bytes).
import AlarmCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let state: ServiceState
  do {
    state = try StateCodec.decode(bytes)
  } catch {
    require(!error.message.isEmpty, "rejected without a reason")
    require(
      !error.description.unicodeScalars.contains { $0.properties.generalCategory == .control },
      "reason with a control character (a broken log line): \(error.description.debugDescription)"
    )
    return 0
  }
  check(state)
  let encoded = StateCodec.encode(state)
  require(encoded.last == 0x0a, "encoded state does not end with a newline")
  let again: ServiceState
  do {
    again = try StateCodec.decode(encoded)
  } catch {
    fail("encoded state does not decode: \(error)\n\(String(decoding: encoded, as: UTF8.self))")
  }
  require(again == state, "state changed in a round trip: \(state) -> \(again)")
  require(StateCodec.encode(again) == encoded, "encoding is not canonical")
  return 0
}

func check(_ s: ServiceState) {
  let range: ClosedRange<Int64> = 0...253_402_300_799
  func instant(_ i: Instant?, _ what: String) {
    if let i { require(range.contains(i.seconds), "\(what) \(i.seconds) out of range") }
  }
  require(s.version == ServiceState.currentVersion, "version \(s.version)")
  instant(s.lastChecked, "last_checked")
  instant(s.highWater, "high_water")
  if let r = s.session {
    require(isPlausibleAlarmID(r.alarmID), "session id '\(r.alarmID)'")
    for (i, what) in [(r.firing, "firing"), (r.started, "started"), (r.periodStart, "period")] {
      instant(i, "session.\(what)")
    }
    instant(r.snoozeUntil, "session.snooze_until")
    require(r.snoozeCount >= 0, "negative snooze count")
  }
  for (id, date) in s.marks.skipNext {
    require(isPlausibleAlarmID(id), "skip_next id '\(id)'")
    require(date.isValid, "skip_next date \(date)")
  }
  for (id, mark) in s.marks.oneOffs {
    require(isPlausibleAlarmID(id), "one_offs id '\(id)'")
    instant(mark.armedAt, "armed_at")
    instant(mark.doneAt, "done_at")
  }
  require(s.history.count <= ServiceState.historyLimit, "\(s.history.count) history entries")
  for h in s.history {
    require(isPlausibleAlarmID(h.alarmID), "history id '\(h.alarmID)'")
    instant(h.firing, "history.firing")
    instant(h.at, "history.at")
    require(h.more >= 0, "history.more \(h.more)")
  }
}
