import CShim

/// Whether the system clock is synchronised (NTP), for `status`: a Pi has no RTC and
/// boots with a stale clock until the network sets it.
///
/// The unit's `ProtectClock=yes` makes even a read-only adjtimex(2) fail with EPERM, so
/// systemd-timesyncd's flag file is read first; adjtimex is the fallback where it is
/// allowed (chrony and ntpd keep the kernel's NTP state too).
public enum ClockSync {
  /// systemd-timesyncd's runtime directory (there only while it runs); it touches
  /// `synchronized` in it once it has synchronised the clock (systemd-timesyncd.service(8)).
  public static let timesyncDirectory = "/run/systemd/timesync"

  /// What adjtimex(2) says of the kernel's NTP state.
  public enum KernelState: Sendable, Equatable {
    case synchronized, unsynchronized
    /// The call was refused (EPERM: seccomp under `ProtectClock=`) or failed.
    case unavailable
  }

  /// true: synchronised; false: not yet; nil: unknown. The flag file wins; then the
  /// kernel's state; when adjtimex is refused, a timesyncd that runs (its directory
  /// exists) but has not written the flag means "not yet".
  public static func isSynchronized(
    timesyncDirectory: String = timesyncDirectory,
    kernel: () -> KernelState = kernelState
  ) -> Bool? {
    if FileSystem.exists(timesyncDirectory + "/synchronized") { return true }
    switch kernel() {
    case .synchronized: return true
    case .unsynchronized: return false
    case .unavailable: return FileSystem.exists(timesyncDirectory) ? false : nil
    }
  }

  /// adjtimex(2) with no modes (reads only). A refusal is expected under the unit's
  /// sandbox and is not an error: it only makes the state unknown.
  public static func kernelState() -> KernelState {
    switch cshim_clock_synchronized() {
    case 1: return .synchronized
    case 0: return .unsynchronized
    default: return .unavailable
    }
  }
}
