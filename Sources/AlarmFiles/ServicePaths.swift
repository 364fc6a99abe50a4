import AlarmCore

/// Where the service keeps things (the clients find its state file and socket by the same
/// rules): flags first, then the config's `[settings]`, then the
/// system defaults.
public struct ServicePaths: Sendable {
  /// The state directory when neither a flag nor `[settings] state_dir` names one.
  public static let defaultStateDir = "/var/lib/alarmclock"
  /// The control socket when neither a flag nor `[settings] socket` names one.
  public static let defaultSocket = "/run/alarmclock/control.sock"

  /// The config file.
  public var config: String
  /// The directory of `state.json` and `last-good.toml`.
  public var stateDir: String
  /// The control socket's path.
  public var socket: String

  /// Resolves the paths: a flag wins over the config's `settings`, which wins over the
  /// defaults.
  public init(config: String, stateFlag: String?, socketFlag: String?, settings: Settings?) {
    self.config = config
    stateDir = stateFlag ?? settings?.stateDir ?? ServicePaths.defaultStateDir
    socket = socketFlag ?? settings?.socket ?? ServicePaths.defaultSocket
  }
}
