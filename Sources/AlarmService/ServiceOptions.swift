import AlarmAudio
import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// What `alarmclock run` asks of the service.
public struct ServiceOptions: Sendable {
  /// The config file (`ConfigFile.path` resolves the flag and `$ALARMCLOCK_CONFIG`).
  public var configPath: String
  /// `--state-dir`, if given.
  public var stateDir: String?
  /// `--socket`, if given.
  public var socket: String?
  /// The process environment (`TZ`, `NOTIFY_SOCKET`, `WATCHDOG_USEC`, locale, ...).
  public var environment: [String: String]
  /// Read snooze and stop keys from stdin (a terminal).
  public var terminal: Bool
  /// Where GPIO chips are looked for (tests point it elsewhere).
  public var devDirectory = "/dev"
  /// Where evdev devices are looked for.
  public var inputDirectory = "/dev/input"
  /// The shortest time between two state-file writes (`StateSaver`).
  public var stateWriteInterval: Duration = .milliseconds(250)
  /// How long a failed state-file write waits before it is tried again.
  public var stateRetryInterval: Duration = .seconds(30)
  /// systemd-timesyncd's runtime directory, whose `synchronized` flag says the clock is
  /// synchronised (tests point it elsewhere).
  public var timesyncDirectory = ClockSync.timesyncDirectory
  /// Whether the ringer's playback thread and the event loop ask for real-time
  /// scheduling (`ThreadPriority`); a refusal is logged and changes nothing else.
  public var realtime = true
  /// How stream sounds are fetched: a helper child beside the executable (a terminal),
  /// or the socket-activated helper (`--stream-socket`, as the packaged unit runs it).
  public var streams: StreamHelper = .besideExecutable
  /// The kernel's NTP state, asked when the flag file is absent (tests fake it).
  public var kernelClockState: @Sendable () -> ClockSync.KernelState = { ClockSync.kernelState() }

  /// Options with the product's defaults for everything not given.
  public init(
    configPath: String, stateDir: String? = nil, socket: String? = nil,
    environment: [String: String], terminal: Bool = false
  ) {
    self.configPath = configPath
    self.stateDir = stateDir
    self.socket = socket
    self.environment = environment
    self.terminal = terminal
  }
}

/// The one place the service reads the wall clock; tests inject their own.
public struct ServiceClock: Sendable {
  /// The current instant.
  public var now: @Sendable () -> Instant

  /// A clock reading `now`.
  public init(now: @escaping @Sendable () -> Instant) { self.now = now }

  /// CLOCK_REALTIME.
  public static let system = ServiceClock(now: { currentInstant() })
}

/// Why the service could not start, in one line naming the path or the call at fault.
public struct ServiceStartError: Error, CustomStringConvertible, Sendable {
  /// The message, ready for the log.
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Lets closures made before `self` exists reach it later, without a retain cycle.
final class WeakRelay<Target: AnyObject> {
  weak var target: Target?
}
