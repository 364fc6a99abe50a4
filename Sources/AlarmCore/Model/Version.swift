/// The release this build is. The one place the version is written: `alarmclock --version`,
/// `status` and the Debian package (scripts/package reads this line) all take it from here.
public enum AlarmclockVersion {
  /// The version string, `MAJOR.MINOR.PATCH`.
  public static let string = "0.1.0"
  /// The day this version was released: bump it with `string` (scripts/package checks that
  /// it is not in the future). A clock earlier than this is obviously wrong (a Pi without a
  /// real-time clock booting at 1970 or at a stale saved time), see `ClockTrust`.
  public static let releaseDate = LocalDate(year: 2026, month: 12, day: 3)
}
