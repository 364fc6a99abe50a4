import AlarmCore

#if canImport(Glibc)
  import Glibc
#endif

/// Every configured `[button]` (GPIO line) and `[[input]]` (evdev devices) on the service's
/// event loop: their fds, one CLOCK_MONOTONIC timer for long presses, and one inotify watch
/// for hot-plug. Each press is reported as it is, with the input's name: what it does
/// (snooze, stop, a hook) is the caller's decision, which knows the ring session.
///
/// A device that is missing, busy or not permitted is logged once (naming the device and the
/// fix), shown as unavailable in `status`, and tried again whenever a node appears in a
/// watched directory (/dev for chips, /dev/input and the selector's own directory for evdev):
/// no polling. Owned by the loop's thread.
public final class PressInputs {
  /// A press (short or long, with its key's actions and kernel timestamp) and the name of
  /// the input it came from, as `status` and the log lines name it.
  public typealias OnPress = (_ press: InputPress, _ source: String) -> Void

  private let loop: EventLoop
  private let log: Logger
  private let onPress: OnPress
  private let devDirectory: String
  private let inputDirectory: String
  /// Armed at the earliest long-press deadline of any held key (event timestamps are
  /// CLOCK_MONOTONIC, so is this timer): a long press acts at the threshold.
  private let timer: TimerFd
  private var hotplug: InputHotplugWatch?
  private var buttons: [Button] = []
  private var groups: [Group] = []

  private final class Button {
    let config: ButtonConfig
    let name: String
    var source: GpioButtonSource?
    var error: InputError?

    init(_ config: ButtonConfig) {
      self.config = config
      name = "button \(config.chip) line \(config.line.logText)"
    }
  }

  private final class Group {
    let config: InputConfig
    let name: String
    let group: EvdevInputGroup
    /// The open devices by fd: held here so an fd is unregistered before it closes.
    var devices: [Int32: EvdevDevice] = [:]
    var error: InputError?

    init(_ config: InputConfig, inputDirectory: String) {
      self.config = config
      let selector: InputDeviceSelector
      switch config.device {
      case .path(let p): selector = .path(p)
      case .glob(let g): selector = .glob(g)
      case .auto: selector = .auto
      }
      name = "input \(selector)"
      // Snooze keys follow the press actions; stop keys stop on any press.
      var stopActions = PressActions.stopOnly
      stopActions.idlePress = config.actions.idlePress
      let bindings =
        config.snooze.map {
          KeyBinding(code: UInt32($0.code), longPress: config.longPress, actions: config.actions)
        }
        + config.stop.map {
          KeyBinding(code: UInt32($0.code), longPress: config.longPress, actions: stopActions)
        }
      group = EvdevInputGroup(
        selector: selector, bindings: bindings, grab: config.grab, inputDirectory: inputDirectory)
    }
  }

  /// Registers the long-press timer on `loop`; nothing is opened until `apply(_:)`.
  /// `devDirectory` and `inputDirectory` are where chips and event devices are looked for.
  public init(
    loop: EventLoop, log: Logger, devDirectory: String = "/dev",
    inputDirectory: String = "/dev/input", onPress: @escaping OnPress
  ) throws(SystemError) {
    self.loop = loop
    self.log = log
    self.devDirectory = devDirectory
    self.inputDirectory = inputDirectory
    self.onPress = onPress
    timer = try TimerFd(clock: .monotonic)
    try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
      self.timerFired()
    }
  }

  /// Opens what `config` asks for. Inputs whose settings did not change stay open (a held
  /// button keeps its press); the others are closed and opened anew.
  public func apply(_ config: Config) {
    var keptButtons: [Button] = []
    var oldButtons = buttons
    for c in config.buttons {
      if let i = oldButtons.firstIndex(where: { $0.config == c }) {
        keptButtons.append(oldButtons.remove(at: i))
      } else {
        keptButtons.append(Button(c))
      }
    }
    oldButtons.forEach(closeButton)
    var keptGroups: [Group] = []
    var oldGroups = groups
    for c in config.inputs {
      if let i = oldGroups.firstIndex(where: { $0.config == c }) {
        keptGroups.append(oldGroups.remove(at: i))
      } else {
        keptGroups.append(Group(c, inputDirectory: inputDirectory))
      }
    }
    oldGroups.forEach(closeGroup)
    buttons = keptButtons
    groups = keptGroups
    watchDirectories()
    openMissing()
  }

  /// Releases every line and device (at shutdown).
  public func close() {
    buttons.forEach(closeButton)
    groups.forEach(closeGroup)
    buttons = []
    groups = []
    if let h = hotplug { loop.unregister(h.descriptor) }
    hotplug = nil
    loop.unregister(timer.descriptor)
    try? timer.disarm()
  }

  /// One entry per configured button and `[[input]]`, for `status`.
  public var statuses: [InputStatus] {
    let b = buttons.map { b in
      guard let s = b.source else {
        return InputStatus(
          name: b.name, available: false, detail: b.error?.description ?? "not open yet")
      }
      let fifo = s.line.isFifo ? " (FIFO event stream)" : ""
      return InputStatus(
        name: b.name, available: true, detail: "\(s.line.chip) offset \(s.line.offset)\(fifo)")
    }
    let g = groups.map { g in
      let open = g.devices.values.map { d in
        d.path + (d.isFifo ? " (FIFO event stream)" : " (\(d.name))")
          + (d.grabbed ? ", grabbed" : "")
      }.sorted()
      if !open.isEmpty {
        return InputStatus(name: g.name, available: true, detail: open.joined(separator: "; "))
      }
      let waiting = "no matching device yet; it is picked up when it appears"
      return InputStatus(
        name: g.name, available: false, detail: g.error?.description ?? waiting)
    }
    return b + g
  }

  // MARK: Opening and closing

  private func openMissing() {
    for b in buttons where b.source == nil { openButton(b) }
    for g in groups { rescan(g) }
    rearmTimer()
  }

  private func openButton(_ b: Button) {
    let c = b.config
    let options = GpioLineRequestOptions(
      bias: c.bias, activeLow: c.activeLow, debounce: c.debounce)
    // GPIO lines use the kernel's debounce, not a software minimum.
    let binding = KeyBinding(code: 0, longPress: c.longPress, actions: c.actions)
    let source: GpioButtonSource
    do throws(InputError) {
      source = try GpioButtonSource.open(
        chip: c.chip, line: c.line, options: options, binding: binding,
        devDirectory: devDirectory)
    } catch {
      if b.error != error {
        log.warning("\(b.name) unavailable: \(error); alarms still ring")
      }
      b.error = error
      return
    }
    do throws(SystemError) {
      try loop.register(source.line.descriptor, interest: .readable) { [unowned self, b] _ in
        self.buttonReadable(b)
      }
    } catch {
      log.error("\(b.name): cannot watch its events: \(error)")
      return
    }
    b.source = source
    b.error = nil
    log.notice("\(b.name): ready on \(source.line.chip) offset \(source.line.offset)")
  }

  private func closeButton(_ b: Button) {
    if let s = b.source { loop.unregister(s.line.descriptor) }
    b.source = nil
  }

  private func rescan(_ g: Group) {
    let r = g.group.rescan()
    for e in r.failures {
      log.warning("\(g.name) unavailable: \(e); alarms still ring")
      g.error = e
    }
    for w in r.warnings { log.warning("\(g.name): \(w)") }
    for device in r.opened {
      let fd = device.fd
      do throws(SystemError) {
        try loop.register(device.descriptor, interest: .readable) { [unowned self, g] _ in
          self.deviceReadable(g, fd: fd)
        }
      } catch {
        log.error("\(g.name): cannot watch \(device.path): \(error)")
        if let key = g.group.path(forFD: fd) { g.group.remove(path: key) }
        continue
      }
      g.devices[fd] = device
      g.error = nil
      let kind = device.isFifo ? "FIFO event stream" : device.name
      log.notice("\(g.name): reading \(device.path) (\(kind))\(device.grabbed ? ", grabbed" : "")")
    }
  }

  private func closeGroup(_ g: Group) {
    for (fd, device) in g.devices {
      loop.unregister(device.descriptor)
      if let key = g.group.path(forFD: fd) { g.group.remove(path: key) }
    }
    g.devices = [:]
  }

  /// Unregisters the devices the group has dropped (closed or removed).
  private func reconcile(_ g: Group) {
    let live = Set(g.group.sources.values.map(\.fd))
    for (fd, device) in g.devices where !live.contains(fd) {
      loop.unregister(device.descriptor)
      g.devices[fd] = nil
      log.warning("\(g.name): \(device.path) went away; it is picked up again when it is back")
    }
  }

  /// The inotify watch over every directory a missing device could appear in.
  private func watchDirectories() {
    var dirs = Set(groups.flatMap(\.group.watchDirectories))
    for b in buttons {
      let chip = b.config.chip
      dirs.insert(chip.hasPrefix("/") ? PressInputs.parent(of: chip) : devDirectory)
    }
    if let h = hotplug {
      loop.unregister(h.descriptor)
      hotplug = nil
    }
    guard !dirs.isEmpty else { return }
    do throws(InputError) {
      let h = try InputHotplugWatch(directories: dirs.sorted())
      try? loop.register(h.descriptor, interest: .readable) { [unowned self] _ in
        self.hotplugChanged()
      }
      hotplug = h
    } catch {
      log.warning("input hot-plug: \(error); devices plugged in later need a reload")
    }
  }

  // MARK: Events

  private func hotplugChanged() {
    guard let changes = hotplug?.read(), !changes.isEmpty else { return }
    for case .disappeared(let path) in changes {
      for b in buttons where b.config.chip == path && b.source != nil {
        closeButton(b)
        log.warning("\(b.name): \(path) went away; it is opened again when it is back")
      }
      for g in groups where g.group.sources[path] != nil {
        g.group.remove(path: path)
        reconcile(g)
      }
    }
    if changes.contains(where: { if case .appeared = $0 { true } else { false } }) {
      openMissing()
    }
  }

  private func buttonReadable(_ b: Button) {
    guard var source = b.source else { return }
    let signals: [InputSignal]
    do throws(InputError) {
      signals = try source.readable()
    } catch {
      log.warning("\(b.name): \(error)")
      signals = [.closed]
    }
    b.source = source
    buttonSignals(b, signals)
    rearmTimer()
  }

  private func buttonSignals(_ b: Button, _ signals: [InputSignal]) {
    if signals.contains(.closed) {
      closeButton(b)
      log.warning("\(b.name): the line went away; it is opened again when its chip is back")
    }
    handle(signals, from: b.name)
  }

  private func deviceReadable(_ g: Group, fd: Int32) {
    guard let path = g.group.path(forFD: fd) else { return }
    let signals = g.group.readable(path: path)
    reconcile(g)
    handle(signals, from: g.name)
    rearmTimer()
  }

  private func timerFired() {
    _ = try? timer.read()
    let now = PressInputs.monotonicNanoseconds()
    for b in buttons {
      guard var source = b.source else { continue }
      let signals = (try? source.timerFired(now: now)) ?? [.closed]
      b.source = source
      buttonSignals(b, signals)
    }
    for g in groups {
      let signals = g.group.timerFired(now: now)
      reconcile(g)
      handle(signals, from: g.name)
    }
    rearmTimer()
  }

  private func handle(_ signals: [InputSignal], from name: String) {
    for signal in signals {
      switch signal {
      case .press(let press):
        onPress(press, name)
      case .eventsLost(let count):
        let n = count.map { "\($0) " } ?? ""
        log.warning(
          "\(name): \(n)events lost (seqno gap or kernel buffer overflow); a press"
            + " in progress is ignored")
      case .closed:
        break
      }
    }
  }

  private func rearmTimer() {
    let deadlines =
      buttons.compactMap { $0.source?.deadline } + groups.compactMap(\.group.deadline)
    do throws(SystemError) {
      if let d = deadlines.min() {
        try timer.arm(at: .nanoseconds(Int64(clamping: d)))
      } else {
        try timer.disarm()
      }
    } catch {
      log.error("long-press timer: \(error); long presses act on release only")
    }
  }

  /// CLOCK_MONOTONIC now, in the nanoseconds of the event timestamps.
  public static func monotonicNanoseconds() -> UInt64 {
    let (s, atto) = TimerFd.Clock.monotonic.now().components
    return UInt64(clamping: s) &* 1_000_000_000 &+ UInt64(clamping: atto / 1_000_000_000)
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }
}
