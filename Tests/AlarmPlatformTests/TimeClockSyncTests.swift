import AlarmPlatform
import AudioTestSupport
import Foundation
import Testing

/// ClockSync with a temporary directory standing in for /run/systemd/timesync and the
/// kernel's answer injected (the unit's ProtectClock=yes refuses adjtimex with EPERM).
@Suite struct TimeClockSyncTests {
  @Test func timesyncdsFlagFileMeansSynchronisedWhateverAdjtimexSays() throws {
    let dir = try TempDir("timesync")
    FileManager.default.createFile(atPath: dir.file("synchronized"), contents: nil)
    for kernel in [ClockSync.KernelState.unavailable, .unsynchronized, .synchronized] {
      #expect(ClockSync.isSynchronized(timesyncDirectory: dir.path, kernel: { kernel }) == true)
    }
  }

  @Test func aRunningTimesyncdWithoutTheFlagUnderTheSandboxIsNotYetSynchronised() throws {
    let dir = try TempDir("timesync")
    #expect(
      ClockSync.isSynchronized(timesyncDirectory: dir.path, kernel: { .unavailable }) == false)
  }

  @Test func chronyOrNtpdAnswerThroughAdjtimexWhenItIsAllowed() {
    let none = "/nonexistent/alarmclock-timesync"
    #expect(ClockSync.isSynchronized(timesyncDirectory: none, kernel: { .synchronized }) == true)
    #expect(ClockSync.isSynchronized(timesyncDirectory: none, kernel: { .unsynchronized }) == false)
  }

  @Test func noTimesyncdAndAdjtimexRefusedIsUnknown() {
    let none = "/nonexistent/alarmclock-timesync"
    #expect(ClockSync.isSynchronized(timesyncDirectory: none, kernel: { .unavailable }) == nil)
  }

  @Test func theRealKernelStateIsReadWithoutSideEffects() {
    // Outside a sandbox adjtimex with no modes only reads; either answer is fine here.
    let state = ClockSync.kernelState()
    #expect([.synchronized, .unsynchronized, .unavailable].contains(state))
  }
}
