import AlarmCore
import Foundation

/// Real zone files from the system's tzdata (Debian's /usr/share/zoneinfo).
func zoneBytes(_ identifier: String) throws -> [UInt8] {
  let url = URL(fileURLWithPath: "/usr/share/zoneinfo/" + identifier)
  return [UInt8](try Data(contentsOf: url))
}

func zone(_ identifier: String) throws -> TimeZoneRules {
  try TimeZoneRules(identifier: identifier, tzif: zoneBytes(identifier))
}

/// An instant written in UTC (`2027-03-28T01:30:00Z`) or with an offset.
func utc(_ text: String) -> Instant {
  guard let instant = ISO8601Text.parse(text, in: .utc) else {
    preconditionFailure("bad test instant \(text)")
  }
  return instant
}

func day(_ text: String) -> LocalDate {
  guard let date = LocalDate(iso: text) else { preconditionFailure("bad test date \(text)") }
  return date
}

func clock(_ text: String) -> LocalTime {
  guard let time = LocalTime(text: text) else { preconditionFailure("bad test time \(text)") }
  return time
}

extension TimeZoneRules {
  /// The instant of a local wall time, e.g. `wall("2027-03-28", "02:30")`.
  func wall(_ date: String, _ time: String) -> Instant { instant(for: day(date), clock(time)) }

  /// ISO 8601 text of an instant in this zone.
  func text(_ instant: Instant) -> String { ISO8601Text.format(instant, in: self) }
}
