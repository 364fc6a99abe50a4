import TOML

/// The whole configuration file, decoded and validated (see `ConfigDecoder`
/// and docs/config.md). Every default is already applied.
public struct Config: Sendable {
  /// The most alarms a config may have: the service keeps every alarm in memory and
  /// decodes them all on each reload (200,000 alarms took 534 MB and 3.6 s to start).
  public static let maxAlarms = 10_000

  /// `[defaults]`: what every alarm inherits.
  public var defaults: AlarmDefaults
  /// `[settings]`.
  public var settings: Settings
  /// `[audio]`.
  public var audio: AudioConfig
  /// `[button]` or `[[button]]`, in file order.
  public var buttons: [ButtonConfig]
  /// `[[input]]`, in file order.
  public var inputs: [InputConfig]
  /// `[hooks]`.
  public var hooks: HooksConfig
  /// `[[alarm]]`, in file order, defaults applied, ids given or derived.
  public var alarms: [Alarm]
  /// Where each alarm is written, by alarm id.
  public var alarmSources: [String: AlarmSource]
  /// Where each value is written, by key path (see `SourcePositions`). Lets later
  /// checks (an unknown time zone, a missing sound) point at the right `line:col`.
  public var positions: SourcePositions
  /// Every `skip_calendars` file (resolved path) with where it is first named, so an
  /// unreadable one is reported at that `line:col`.
  public var skipCalendarPositions: [String: SourcePosition] = [:]
  /// `[web]`: `alarmclock web`'s address and token file.
  public var web = WebConfig()
  /// `[voice]`.
  public var voice = VoiceConfig()

  public init(
    defaults: AlarmDefaults = AlarmDefaults(), settings: Settings = Settings(),
    audio: AudioConfig = AudioConfig(), buttons: [ButtonConfig] = [],
    inputs: [InputConfig] = [], hooks: HooksConfig = HooksConfig(), alarms: [Alarm] = [],
    alarmSources: [String: AlarmSource] = [:], positions: SourcePositions = SourcePositions()
  ) {
    self.defaults = defaults
    self.settings = settings
    self.audio = audio
    self.buttons = buttons
    self.inputs = inputs
    self.hooks = hooks
    self.alarms = alarms
    self.alarmSources = alarmSources
    self.positions = positions
  }

  /// The alarm with `id`, if any.
  public func alarm(id: String) -> Alarm? { alarms.first { $0.id == id } }
}

/// `[settings]`. Relative paths are resolved against the config file's directory.
public struct Settings: Hashable, Sendable {
  /// An IANA zone name (`Europe/Berlin`); nil: `TZ`, else /etc/localtime, else UTC.
  public var timezone: String?
  /// Directories searched for sound names, in order (before the bundled sounds).
  public var soundDirs: [String]
  /// Where the service keeps its state; nil: the service default.
  public var stateDir: String?
  /// The control socket's path; nil: the service default.
  public var socket: String?

  public init(
    timezone: String? = nil, soundDirs: [String] = [], stateDir: String? = nil,
    socket: String? = nil
  ) {
    self.timezone = timezone
    self.soundDirs = soundDirs
    self.stateDir = stateDir
    self.socket = socket
  }
}

/// `[audio]`.
public struct AudioConfig: Hashable, Sendable {
  /// ALSA PCM name.
  public var device: String
  /// ALSA simple mixer control raised and unmuted during a ring (`PCM`, `Master`).
  public var mixer: String?
  /// ALSA control device (ctl name) holding `mixer`; nil: derived from `device`.
  public var mixerDevice: String?
  /// PCM names tried in order when `device` cannot be opened.
  public var fallbackDevices: [String]
  /// A piezo buzzer beeped when no sound device opens; nil for none.
  public var buzzer: BuzzerConfig?
  /// How long before a stream alarm its stream is opened and buffered (`stream_lead`).
  public var streamLead: Duration = AudioConfig.defaultStreamLead

  /// `stream_lead` when the file does not set it.
  public static let defaultStreamLead: Duration = .seconds(30)
  /// What `stream_lead` may be: long enough to connect, short enough not to hold the
  /// device long before the alarm.
  public static let streamLeadRange = Duration.seconds(5)...Duration.seconds(600)

  /// The devices tried in order: `device`, then the fallbacks that are not it.
  public var devices: [String] { [device] + fallbackDevices.filter { $0 != device } }

  public init(
    device: String = "default", mixer: String? = nil, mixerDevice: String? = nil,
    fallbackDevices: [String] = []
  ) {
    self.device = device
    self.mixer = mixer
    self.mixerDevice = mixerDevice
    self.fallbackDevices = fallbackDevices
  }
}

/// `[audio] buzzer = { chip = "gpiochip0", line = "GPIO18" }`: a GPIO output line with a
/// piezo buzzer, the last resort when no sound device opens.
public struct BuzzerConfig: Hashable, Sendable {
  /// The chip: a path, a name (`gpiochip0`) or a label (`pinctrl-rp1`), as for buttons.
  public var chip: String
  public var line: GPIOLine

  public init(chip: String, line: GPIOLine) {
    self.chip = chip
    self.line = line
  }
}

/// What a press does while an alarm rings.
public enum PressAction: String, Hashable, Sendable, CaseIterable {
  case snooze, stop, none
}

/// What a press does while nothing rings.
public enum IdlePressAction: String, Hashable, Sendable, CaseIterable {
  /// Nothing.
  case none
  /// Runs the `[hooks] idle_press` command (ring test, speak the next alarm, ...).
  case hook
  /// Says the time and the next alarm (`[voice]`, as `alarmclock say-time`).
  case sayTime = "say_time"
}

/// The press logic shared by GPIO buttons and evdev keys.
public struct PressActions: Hashable, Sendable {
  /// A press released before `longPress`.
  public var shortPress: PressAction
  /// Held for `longPress`: fires at the threshold, without waiting for release.
  public var longPress: PressAction
  /// Any press while nothing rings.
  public var idlePress: IdlePressAction

  public init(
    shortPress: PressAction = .snooze, longPress: PressAction = .stop,
    idlePress: IdlePressAction = .none
  ) {
    self.shortPress = shortPress
    self.longPress = longPress
    self.idlePress = idlePress
  }
}

/// GPIO line bias.
public enum GPIOBias: String, Hashable, Sendable, CaseIterable {
  case pullUp = "pull-up"
  case pullDown = "pull-down"
  case disabled
  /// Leave the line's bias as the kernel or firmware set it.
  case asIs = "as-is"
}

/// A GPIO line: by offset on its chip, or by line name (`GPIO17`).
public enum GPIOLine: Hashable, Sendable {
  case offset(UInt32)
  case name(String)
}

/// `[button]` / `[[button]]`: a push button on a GPIO line.
public struct ButtonConfig: Hashable, Sendable {
  /// Chip path (`/dev/gpiochip0`), name (`gpiochip0`) or label (`pinctrl-rp1`).
  public var chip: String
  public var line: GPIOLine
  public var bias: GPIOBias
  /// Pressed reads as low (a button to GND with a pull-up).
  public var activeLow: Bool
  /// Kernel debounce period.
  public var debounce: Duration
  /// Hold time that makes a press long.
  public var longPress: Duration
  public var actions: PressActions

  public init(
    chip: String, line: GPIOLine, bias: GPIOBias = .pullUp, activeLow: Bool = true,
    debounce: Duration = .milliseconds(10), longPress: Duration = .milliseconds(1500),
    actions: PressActions = PressActions()
  ) {
    self.chip = chip
    self.line = line
    self.bias = bias
    self.activeLow = activeLow
    self.debounce = debounce
    self.longPress = longPress
    self.actions = actions
  }
}

/// One Linux input key, by name and code (`KEY_SPACE`, 57).
public struct InputKey: Hashable, Sendable {
  public var name: String
  public var code: UInt16

  public init(name: String, code: UInt16) {
    self.name = name
    self.code = code
  }
}

/// `[[input]]`: evdev devices (keyboards, IR remotes, gpio-key buttons).
public struct InputConfig: Hashable, Sendable {
  /// How the devices are found.
  public enum Device: Hashable, Sendable {
    /// One device node (`/dev/input/event3`).
    case path(String)
    /// A glob pattern (`/dev/input/by-id/*-event-kbd`), matched again on hot-plug.
    case glob(String)
    /// Every input device that has keys.
    case auto
  }

  public var device: Device
  /// Keys whose press works like a button press (short: snooze, held: stop).
  public var snooze: [InputKey]
  /// Keys that stop at once.
  public var stop: [InputKey]
  /// Take the devices exclusively (EVIOCGRAB).
  public var grab: Bool
  /// Hold time that makes a press of a `snooze` key long.
  public var longPress: Duration
  public var actions: PressActions

  public init(
    device: Device, snooze: [InputKey] = [], stop: [InputKey] = [], grab: Bool = false,
    longPress: Duration = .milliseconds(1500), actions: PressActions = PressActions()
  ) {
    self.device = device
    self.snooze = snooze
    self.stop = stop
    self.grab = grab
    self.longPress = longPress
    self.actions = actions
  }
}

/// An event a hook can run on.
public enum HookEvent: String, Hashable, Sendable, CaseIterable {
  case preRing = "pre_ring"
  case ring, snooze, stop, missed
  /// A button or key press while nothing rings (with `on_idle_press = "hook"`).
  case idlePress = "idle_press"
  /// The audio check before an alarm found the configured device missing (failover
  /// chosen), or a ring found no device at all.
  case audioFailed = "audio_failed"
}

/// `[hooks]`: commands run on events.
public struct HooksConfig: Hashable, Sendable {
  /// The argv to execute per event (for `shell = true` strings: `/bin/sh -c TEXT`).
  public var commands: [HookEvent: [String]]
  /// How long before an alarm `pre_ring` runs.
  public var preRingLead: Duration
  /// A hook still running after this is killed.
  public var timeout: Duration

  public init(
    commands: [HookEvent: [String]] = [:], preRingLead: Duration = .seconds(10 * 60),
    timeout: Duration = .seconds(30)
  ) {
    self.commands = commands
    self.preRingLead = preRingLead
    self.timeout = timeout
  }
}

/// Where one `[[alarm]]` is written, for error messages and the config editor.
public struct AlarmSource: Hashable, Sendable {
  /// The `[[alarm]]` header; nil for an alarm written as an inline table.
  public var header: SourceRange?
  /// UTF-8 byte offsets of the whole block: from the start of the header's line to
  /// the start of the next header's line (or the end of the file). For an inline
  /// table, the table itself.
  public var block: Range<Int>
  /// Where the block starts (line and column), for messages.
  public var start: SourcePosition
  /// Whether the id is written in the file (else it was derived).
  public var hasExplicitID: Bool

  public init(header: SourceRange?, block: Range<Int>, start: SourcePosition, hasExplicitID: Bool) {
    self.header = header
    self.block = block
    self.start = start
    self.hasExplicitID = hasExplicitID
  }
}

/// Where the values of a config are written, looked up by key path: `settings.timezone`,
/// `audio.device`, `alarm[0].sound` (the index is the same as in `Config.alarms`),
/// `button[1].chip` (`button[0].chip` also for a single `[button]` table), `input[0].device`,
/// `hooks.ring`, `alarm[2].skip[1]`. Computed on lookup from the parsed document, so a
/// large config costs nothing until a position is needed.
public struct SourcePositions: Sendable {
  private let root: TOMLTable

  public init(_ root: TOMLTable = TOMLTable()) { self.root = root }

  /// The position of the value at `keyPath`, or nil if the file does not set it.
  public subscript(keyPath: String) -> SourcePosition? {
    let origin = SourcePosition(line: 1, column: 1, offset: 0)
    var node = TOMLNode(value: .table(root), range: SourceRange(start: origin, end: origin))
    for segment in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
      var key = Substring(segment)
      var indices: [Int] = []
      while key.hasSuffix("]"), let open = key.lastIndex(of: "[") {
        guard let i = Int(key[key.index(after: open)..<key.index(before: key.endIndex)]) else {
          return nil
        }
        indices.insert(i, at: 0)
        key = key[..<open]
      }
      guard case .table(let table) = node.value, let entry = table.entry(String(key)) else {
        return nil
      }
      node = entry.node
      for (n, i) in indices.enumerated() {
        switch node.value {
        case .array(let array) where array.elements.indices.contains(i):
          node = array.elements[i]
        case .table where i == 0 && n == 0 && indices.count == 1:
          continue  // `button[0]` for a single `[button]` table
        default:
          return nil
        }
      }
    }
    return node.range.start
  }
}
