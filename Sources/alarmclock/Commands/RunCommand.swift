import AlarmAudio
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock run`: the service, in the foreground.
struct RunCommand: Command {
  static let name = "run"
  static let summary = "run the alarm service in the foreground"
  static let help = """
    usage: alarmclock run [--config PATH] [--state-dir DIR] [--socket PATH]
                          [--stream-socket PATH] [--log-level LEVEL] [--no-terminal]

    Runs the service: rings the alarms of the config, keeps its state in the state
    directory and answers 'alarmclock status', 'snooze', 'stop', ... on the control
    socket. Edits of the config apply at once; an invalid edit is refused and the
    last good config stays in force. On a terminal, space or s snoozes and Enter or
    x stops. SIGTERM or SIGINT stops it, SIGHUP reads the config again.

    Defaults: --config /etc/alarmclock/alarms.toml (or $ALARMCLOCK_CONFIG),
    --state-dir /var/lib/alarmclock and --socket /run/alarmclock/control.sock,
    unless the config's [settings] says otherwise. --log-level: error, warning,
    notice, info (the default) or debug.

    Stream sounds (http:// and https:// URLs) are fetched and decoded by the stream
    helper, never by the service: a child alarmclock-stream beside this executable,
    or with --stream-socket the socket-activated alarmclock-stream.socket (as the
    packaged unit runs it, with no network of its own).
    """
  var configPath: String?
  var stateDir: String?
  var socket: String?
  var streamSocket: String?
  var level: LogLevel
  var useTerminal: Bool

  init(arguments: inout Arguments) throws(UsageError) {
    configPath = try arguments.option("--config")
    stateDir = try arguments.option("--state-dir")
    socket = try arguments.option("--socket")
    streamSocket = try arguments.option("--stream-socket")
    let levelName = try arguments.option("--log-level") ?? "info"
    guard let level = LogLevel(name: levelName) else {
      throw UsageError("--log-level must be error, warning, notice, info or debug")
    }
    self.level = level
    useTerminal = !arguments.flag("--no-terminal")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    let log = Logger(fd: 2, environment: Environment(env), minimumLevel: level)
    var options = ServiceOptions(
      configPath: ConfigFile.path(configPath, environment: env), stateDir: stateDir,
      socket: socket, environment: env, terminal: useTerminal && isatty(0) == 1)
    if let streamSocket { options.streams = .socket(path: streamSocket) }
    let service: Service
    do throws(ServiceStartError) {
      service = try Service(options: options, log: log)
    } catch {
      log.error("cannot start: \(error)")
      return ExitCode.failure
    }
    return service.run()
  }
}
