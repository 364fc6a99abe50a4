/// Time-zone rules: the mapping between instants and local wall times of one
/// zone, from a TZif file (its table, then its POSIX footer) or a POSIX TZ
/// string. Pure: the platform layer reads the file; this only does arithmetic
/// (binary search in the table, calendar math for the footer).

/// Why a zone could not be read, in plain words.
public struct TimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// The rules of one time zone.
public struct TimeZoneRules: Sendable, Hashable, CustomStringConvertible {
  /// The zone's name, e.g. `Europe/Berlin` (or the POSIX string it came from).
  public let identifier: String
  /// Transition instants, ascending.
  private let times: [Int64]
  /// The type each transition switches to.
  private let types: [LocalType]
  /// The type before the first transition.
  private let initial: LocalType
  /// Rules after the last transition (or for all time when there is no table).
  private let footer: PosixTZ?

  /// Reads a TZif file (RFC 8536 v1-v4; the 64-bit data when present).
  public init(identifier: String, tzif: [UInt8]) throws(TimeZoneError) {
    let data: TZifData
    do {
      data = try TZifParser.parse(tzif)
    } catch {
      throw TimeZoneError("time zone \(identifier): \(error.message)")
    }
    self.identifier = identifier
    self.times = data.times
    self.types = data.types
    self.initial = data.initial
    self.footer = data.footer
  }

  /// Reads a POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3`.
  public init(identifier: String, posix: String) throws(TimeZoneError) {
    let tz = try PosixTZParser.parse(posix)
    self.identifier = identifier
    self.times = []
    self.types = []
    self.initial = tz.standard
    self.footer = tz
  }

  private init(identifier: String, fixed: LocalType) {
    self.identifier = identifier
    self.times = []
    self.types = []
    self.initial = fixed
    self.footer = nil
  }

  /// Coordinated Universal Time.
  public static let utc = TimeZoneRules(
    identifier: "UTC", fixed: LocalType(offset: 0, isDST: false, abbreviation: "UTC"))

  public var description: String { identifier }

  /// The UTC offset in force at `instant`, in seconds east of UTC.
  public func offset(at instant: Instant) -> Int { type(at: clamp(instant.seconds)).offset }

  /// The abbreviation in force at `instant`, e.g. `CEST` or `+1030`.
  public func abbreviation(at instant: Instant) -> String {
    type(at: clamp(instant.seconds)).abbreviation
  }

  /// The local date, wall time and offset at `instant`.
  public func local(at instant: Instant) -> (date: LocalDate, time: LocalTime, offset: Int) {
    let t = clamp(instant.seconds)
    let offset = type(at: t).offset
    let wall = t + Int64(offset)
    let days = floorDiv(wall, 86400)
    return (
      LocalDate(daysSinceEpoch: Int(days)), LocalTime(secondsOfDay: Int(wall - days * 86400)),
      offset
    )
  }

  /// The instant a local wall time maps to, by RFC 5545: a time inside a gap
  /// takes the offset in force before the gap (02:30 on a spring-forward
  /// night is 03:30 daylight time); a time that occurs twice takes the first
  /// occurrence.
  public func instant(for date: LocalDate, _ time: LocalTime) -> Instant {
    dayMap(for: date).instant(for: time)
  }

  /// The instants `from < t <= through` at which the UTC offset changes
  /// (a DST change or a change of standard offset).
  public func transitions(from: Instant, through: Instant) -> [Instant] {
    let a = clamp(from.seconds)
    let b = clamp(through.seconds)
    guard a < b else { return [] }
    var current = type(at: a).offset
    var out: [Instant] = []
    for change in changes(after: a, through: b).changes where change.to.offset != current {
      current = change.to.offset
      out.append(Instant(seconds: change.at))
    }
    return out
  }

  // MARK: - Internals

  /// Instants beyond about a million years are clamped so no arithmetic on
  /// them can overflow.
  private func clamp(_ t: Int64) -> Int64 { min(max(t, -(1 << 45)), 1 << 45) }

  /// The number of transitions at or before `t`.
  private func countThrough(_ t: Int64) -> Int {
    var low = 0
    var high = times.count
    while low < high {
      let mid = (low + high) / 2
      if times[mid] <= t { low = mid + 1 } else { high = mid }
    }
    return low
  }

  func type(at t: Int64) -> LocalType {
    let n = countThrough(t)
    if n == times.count, let footer { return footer.type(at: t) }
    return n == 0 ? initial : types[n - 1]
  }

  /// The type in force at `a` and every change of type in `a < at <= b`.
  func changes(after a: Int64, through b: Int64) -> (start: LocalType, changes: [PosixTZ.Change]) {
    let start = type(at: a)
    var current = start
    var out: [PosixTZ.Change] = []
    var i = countThrough(a)
    while i < times.count, times[i] <= b {
      if types[i] != current {
        out.append(PosixTZ.Change(at: times[i], to: types[i]))
        current = types[i]
      }
      i += 1
    }
    if let footer, footer.daylight != nil, times.last.map({ $0 < b }) ?? true {
      let from = max(a, times.last ?? a)
      for year in (footer.year(of: from) - 1)...(footer.year(of: b) + 1) {
        for change in footer.changes(inYear: year) where change.at > from && change.at <= b {
          // Two changes at one instant (DST all year: the end meets the next
          // start) are one change, or none.
          if let last = out.last, last.at == change.at {
            out.removeLast()
            current = out.last?.to ?? start
          }
          if change.to != current {
            out.append(change)
            current = change.to
          }
        }
      }
    }
    return (start, out)
  }

  /// The offsets in force around one local day, to map its wall times to
  /// instants without searching the table again for each one.
  func dayMap(for date: LocalDate) -> DayMap {
    let days = Int64(min(max(date.daysSinceEpoch, -(1 << 32)), 1 << 32))
    let wall = days * 86400
    // Offsets stay within +-26 h, so every candidate for a wall time of this
    // day lies in this window.
    let (start, changes) = changes(after: wall - 2 * 86400, through: wall + 3 * 86400)
    var offsets = [Int64(start.offset)]
    var starts = [Int64.min]
    for change in changes {
      offsets.append(Int64(change.to.offset))
      starts.append(change.at)
    }
    return DayMap(midnight: wall, offsets: offsets, starts: starts)
  }
}

/// Segments of constant offset around one local day: `offsets[i]` is in force
/// from `starts[i]` until `starts[i + 1]`.
struct DayMap {
  let midnight: Int64
  let offsets: [Int64]
  let starts: [Int64]

  func instant(for time: LocalTime) -> Instant {
    let wall = midnight + Int64(time.secondsOfDay)
    if offsets.count == 1 { return Instant(seconds: wall - offsets[0]) }
    // The earliest segment whose wall-clock range holds `wall`: first occurrence.
    for i in offsets.indices {
      let t = wall - offsets[i]
      if t >= starts[i] && (i + 1 == starts.count || t < starts[i + 1]) {
        return Instant(seconds: t)
      }
    }
    // Inside a gap: use the offset before it.
    for i in 1..<offsets.count where wall - offsets[i - 1] >= starts[i] {
      if wall - offsets[i] < starts[i] { return Instant(seconds: wall - offsets[i - 1]) }
    }
    return Instant(seconds: wall - offsets[0])
  }
}
