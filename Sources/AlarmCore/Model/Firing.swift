/// What the schedule produces and what the service remembers about it.

/// One upcoming (or past) ring of an alarm: the wall time it was set for and
/// the instant that wall time maps to in the alarm's zone.
public struct Firing: Hashable, Sendable, Codable {
  public var alarmID: String
  /// The instant it rings (after the RFC 5545 gap/overlap rules).
  public var at: Instant
  /// The local date of the occurrence.
  public var date: LocalDate
  /// The wall time it was set for (may differ from the wall time at `at`
  /// inside a DST gap: 02:30 set, rings at 03:30).
  public var time: LocalTime

  public init(alarmID: String, at: Instant, date: LocalDate, time: LocalTime) {
    self.alarmID = alarmID
    self.at = at
    self.date = date
    self.time = time
  }
}

/// Per-alarm marks the schedule honours, kept by the service in its state file.
public struct ScheduleMarks: Hashable, Sendable, Codable {
  /// `alarmclock skip ID`: the local date of the one occurrence to skip.
  public var skipNext: [String: LocalDate]
  /// One-offs: when each was armed and whether it has rung.
  public var oneOffs: [String: OneOffMark]

  public init(skipNext: [String: LocalDate] = [:], oneOffs: [String: OneOffMark] = [:]) {
    self.skipNext = skipNext
    self.oneOffs = oneOffs
  }
}

/// The life of a one-off alarm: armed when first seen enabled (a one-off
/// without `date` rings at the next occurrence of its time after that), done
/// once it has rung. `fingerprint` ties the mark to the alarm's time and
/// date: editing either re-arms it, as re-setting a phone alarm does.
public struct OneOffMark: Hashable, Sendable, Codable {
  public var armedAt: Instant
  public var doneAt: Instant?
  public var fingerprint: String

  public init(armedAt: Instant, doneAt: Instant? = nil, fingerprint: String) {
    self.armedAt = armedAt
    self.doneAt = doneAt
    self.fingerprint = fingerprint
  }

  /// The fingerprint of an alarm's one-off identity.
  public static func fingerprint(of alarm: Alarm) -> String {
    "\(alarm.time)|\(alarm.date.map(\.description) ?? "-")"
  }
}

/// Where firings come from: the schedule (Schedule/), seen through a
/// protocol so the ring engine (Session/) does not depend on how it is built.
public protocol FiringSource: Sendable {
  /// Every firing with `after < at <= through`, ordered by `at` (then alarm id).
  func firings(after: Instant, through: Instant, marks: ScheduleMarks) -> [Firing]
  /// The first firing strictly after `instant`, if any alarm will ever ring again.
  func next(after instant: Instant, marks: ScheduleMarks) -> Firing?
  /// The next `limit` firings strictly after `after`, in order (then by alarm id). The
  /// default walks `next(after:marks:)`; a schedule merges them in one pass.
  func upcoming(after: Instant, limit: Int, marks: ScheduleMarks) -> [Firing]
  /// The first firing of one alarm strictly after `instant` (for `skip`).
  /// The default walks `next(after:marks:)`; a schedule can do better.
  func next(of alarmID: String, after instant: Instant, marks: ScheduleMarks) -> Firing?
  /// The occurrences of one alarm after `after` skipped before its next firing (at most
  /// `limit`, earliest first), each with why. The default knows of none.
  func skipped(of alarmID: String, after: Instant, marks: ScheduleMarks, limit: Int)
    -> [SkippedOccurrence]
}

extension FiringSource {
  public func upcoming(after start: Instant, limit: Int, marks: ScheduleMarks) -> [Firing] {
    var out: [Firing] = []
    var t = start
    while out.count < limit, let f = next(after: t, marks: marks) {
      out += firings(after: f.at - .seconds(1), through: f.at, marks: marks)
      t = f.at
    }
    return Array(out.prefix(max(0, limit)))
  }

  public func skipped(of alarmID: String, after: Instant, marks: ScheduleMarks, limit: Int)
    -> [SkippedOccurrence]
  { [] }

  public func next(of alarmID: String, after instant: Instant, marks: ScheduleMarks) -> Firing? {
    var t = instant
    // Bounded: 10,000 instants of other alarms first is beyond any real config.
    for _ in 0..<10_000 {
      guard let f = next(after: t, marks: marks) else { return nil }
      let same = firings(after: f.at - .seconds(1), through: f.at, marks: marks)
      if let mine = same.first(where: { $0.alarmID == alarmID }) { return mine }
      t = f.at
    }
    return nil
  }
}
