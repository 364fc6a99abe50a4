// Fuzz target `config`: TOML text (UTF-8, lossy) through ConfigDecoder.decode,
// the whole parse + decode + validation the service runs on every reload.
// Beyond "no crash":
// - every diagnostic and every recorded key position is a real place in the text;
// - a config is returned exactly when there is no error;
// - a returned config only holds alarms the rest of the service can use:
//   valid times and dates, volume 0-100, durations in their documented ranges,
//   unique ids that the state file and control protocol accept.
import AlarmCore
import TOML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let lines = LineTable(Array(text.utf8))
  let result = ConfigDecoder.decode(
    text, path: "/etc/alarmclock/alarms.toml", now: LocalDate(year: 2026, month: 3, day: 29))

  for d in result.diagnostics {
    let p = d.position
    if let problem = lines.check(line: p.line, column: p.column, offset: p.offset) {
      fail("diagnostic '\(d.message)' at \(p): \(problem)")
    }
    require(!d.message.isEmpty, "diagnostic without a message at \(p)")
    require(!d.formatted(path: result.path).contains("\n"), "multi-line diagnostic: \(d)")
  }
  require(
    (result.config == nil) == !result.errors.isEmpty,
    "config returned: \(result.config != nil), errors: \(result.errors.count)")
  guard let config = result.config else { return 0 }

  let byteCount = text.utf8.count
  var ids = Set<String>()
  for (index, alarm) in config.alarms.enumerated() {
    let what = "alarm '\(alarm.id)'"
    require(ids.insert(alarm.id).inserted, "duplicate alarm id '\(alarm.id)'")
    require(isPlausibleAlarmID(alarm.id), "\(what): id the state file would reject")
    require(alarm.time.isValid, "\(what): invalid time \(alarm.time)")
    require(alarm.date?.isValid ?? true, "\(what): invalid date \(String(describing: alarm.date))")
    require(alarm.skip.allSatisfy(\.isValid), "\(what): invalid skip date")
    require((0...100).contains(alarm.volume), "\(what): volume \(alarm.volume)")
    require(
      alarm.ramp >= .zero && alarm.ramp <= .seconds(3600), "\(what): ramp \(alarm.ramp)")
    require(
      alarm.ringFor >= .seconds(1) && alarm.ringFor <= .seconds(12 * 3600),
      "\(what): ring_for \(alarm.ringFor)")
    if let snooze = alarm.snooze {
      require(snooze >= .seconds(1) && snooze <= .seconds(3600), "\(what): snooze \(snooze)")
    }
    guard let source = config.alarmSources[alarm.id] else { fail("\(what): no source recorded") }
    let s = source.start
    if let problem = lines.check(line: s.line, column: s.column, offset: s.offset) {
      fail("\(what): block start \(s): \(problem)")
    }
    require(
      source.block.lowerBound >= 0 && source.block.upperBound <= byteCount,
      "\(what): block \(source.block) outside 0..<\(byteCount)")
    if let h = source.header {
      for p in [h.start, h.end] {
        if let problem = lines.check(line: p.line, column: p.column, offset: p.offset) {
          fail("\(what): header at \(p): \(problem)")
        }
      }
    }
    // Key-path lookups (the config editor's) land on real places.
    if let p = config.positions["alarm[\(index)].time"] {
      if let problem = lines.check(line: p.line, column: p.column, offset: p.offset) {
        fail("\(what): position of alarm[\(index)].time \(p): \(problem)")
      }
    }
  }
  return 0
}
