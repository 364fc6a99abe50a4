import CShim

/// Whether the system clock is synchronised (NTP), for `status`: a Pi has no RTC and
/// boots with a stale clock until the network sets it.
public enum ClockSync {
  /// systemd-timesyncd's flag file, present once it has synchronised the clock.
  public static let timesyncFlag = "/run/systemd/timesync/synchronized"

  /// true: synchronised (timesyncd's flag, or the kernel's NTP state is not TIME_ERROR,
  /// which chrony and ntpd keep too); false: not yet; nil: unknown.
  public static func isSynchronized() -> Bool? {
    if FileSystem.exists(timesyncFlag) { return true }
    switch cshim_clock_synchronized() {
    case 1: return true
    case 0: return false
    default: return nil
    }
  }
}
