import AlarmCore
import AlarmPlatform
import Glibc
import Testing

@testable import AlarmService

/// The reminder list in the service, driven in-process with the clock injected: due times
/// on the alarm timer, `[voice] quiet_hours`, a reminder due during a ring said after it,
/// and a broken list that leaves the last good one in force. (The sound itself, the chime
/// and the sentence recorded from a sink, and the press that marks one done are in
/// alarmclockTests' ServiceReminderTests.)
@Suite(.serialized)
struct ServiceReminderTests {
  static let list = """
    # the list of the household
    [[reminder]]
    id = "pills"
    title = "Pills"
    due = 2040-01-02T05:30:00

    [[reminder]]
    id = "bins"
    title = "Take the bins out"
    due = 2040-01-02T06:45:00

    [[reminder]]
    id = "call"
    title = "Call Grandma"
    due = 2040-01-02T07:00:10

    [[reminder]]
    id = "dentist"
    title = "Dentist"
    due = 2040-01-02
    """

  static func harness(_ list: String = list) throws -> ServiceHarness {
    try ServiceHarness(
      config: ServiceHarness.config(
        ServiceHarness.alarm("wake", "07:00"),
        extra: "\n[voice]\nlanguage = \"en\"\nquiet_hours = \"22:00-06:30\"\n"),
      at: ServiceHarness.at(5, 0),
      prepare: { h, dir in try h.write(list, to: dir + "/reminders.toml") })
  }

  @Test func dueTimesWakeTheTimerQuietHoursAreKeptAndARingComesFirst() throws {
    let h = try Self.harness()
    // Said, or where espeak-ng is missing (the arm64 tier's chroot) tried and refused.
    func said(_ sentence: String) -> Bool {
      h.log.contains("speech: \"\(sentence)\"")
        || h.log.contains("speech: espeak-ng could not be started")
    }
    #expect(h.plan.deadline == ServiceHarness.at(5, 30))
    #expect(!h.plan.isPreparePoint)
    h.fireTimer()
    try h.turn { h.log.contains("reminder 'pills' is due: Pills") }
    #expect(h.log.contains("reminder 'pills': quiet hours (22:00-06:30), not said"))

    #expect(h.plan.deadline == ServiceHarness.at(6, 45))
    h.fireTimer(late: .milliseconds(3))
    try h.turn { said("Reminder: Take the bins out.") }
    try h.turn(timeout: 30) { !h.service.speech.isBusy }

    // The alarm's prepare point, the ring, then a reminder due while it rings.
    #expect(h.plan.isPreparePoint)
    h.fireTimer()
    h.fireTimer()
    try h.turn { h.service.engine.soundPlaying }
    #expect(h.plan.deadline == ServiceHarness.at(7, 0, 10))
    h.fireTimer()
    try h.turn { h.log.contains("reminders: 1 to say after the ring") }
    #expect(!h.log.contains("speech: \"Reminder: Call Grandma.\""))
    #expect(try h.request(#"{"cmd":"stop"}"#).contains(#""ok":true"#))
    try h.turn { said("Reminder: Call Grandma.") && h.log.contains("to say after the ring") }
    // A date without a time is read in the morning, never chimed.
    #expect(!h.log.contains("reminder 'dentist' is due"))
  }

  @Test func aBrokenListKeepsTheLastGoodOne() throws {
    let h = try Self.harness()
    let path = h.dir + "/reminders.toml"
    try ServiceHarness.write("[[reminder]]\ntitle = \"x\"\ndue = 2040-13-01\n", to: path)
    try h.turn { h.log.contains("reminders rejected (file changed)") }
    #expect(h.log.contains("reminders.toml:3:"))
    #expect(h.service.reminders.list.reminders.map(\.id) == ["pills", "bins", "call", "dentist"])
    #expect(h.plan.deadline == ServiceHarness.at(5, 30))
    // Fixed by hand: the new list is in force at once, its due time on the timer.
    try ServiceHarness.write(
      "[[reminder]]\ntitle = \"Tea\"\ndue = 2040-01-02T05:10:00\n", to: path)
    try h.turn { h.log.contains("reminders applied (file changed): 1 reminder") }
    #expect(h.plan.deadline == ServiceHarness.at(5, 10))
  }

  /// A start (a restart) within ten minutes of a due time says it at once; one further
  /// back is never said late.
  @Test func aDueTimeJustBeforeTheStartIsSaidOlderOnesNot() throws {
    let h = try ServiceHarness(
      config: ServiceHarness.config(ServiceHarness.alarm("wake", "07:00")),
      at: ServiceHarness.at(6, 50),
      prepare: { h, dir in try h.write(Self.list, to: dir + "/reminders.toml") })
    #expect(h.log.contains("reminder 'bins' is due: Take the bins out"))
    #expect(!h.log.contains("reminder 'pills'"))
    #expect(h.plan.deadline == ServiceHarness.at(6, 59, 58))
    h.fireTimer()
    #expect(h.log.split(separator: "\n").filter { $0.contains(" is due: ") }.count == 1)
  }
}
