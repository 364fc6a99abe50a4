/// The release this build is. The one place the version is written: `alarmclock --version`,
/// `status` and the Debian package (scripts/package reads this line) all take it from here.
public enum AlarmclockVersion {
  /// The version string, `MAJOR.MINOR.PATCH`.
  public static let string = "0.1.0"
}
