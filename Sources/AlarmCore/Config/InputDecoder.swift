import TOML

/// `[button]` / `[[button]]` (GPIO) and `[[input]]` (evdev).
enum InputDecoder {
  static let actionKeys = ["on_short_press", "on_long_press", "on_idle_press"]
  static let buttonKeys =
    ["chip", "line", "bias", "active_low", "debounce", "long_press"] + actionKeys
  static let inputKeys = ["device", "snooze", "stop", "grab", "long_press", "on_idle_press"]

  static let debounceRange = Duration.zero...Duration.seconds(1)
  static let longPressRange = Duration.milliseconds(100)...Duration.seconds(10)
  static let buttonTimeExamples = "\"10ms\", \"1.5s\" or \"2s\""

  static func button(_ r: TableReader, hasIdleHook: Bool) -> ButtonConfig? {
    let chip = gpioChip(r)
    let line = gpioLine(r)
    let bias = r.choice("bias", of: GPIOBias.self)
    let activeLow = r.bool("active_low")
    let debounce = r.duration(
      "debounce", in: debounceRange, wholeSeconds: false, examples: buttonTimeExamples)
    let longPress = r.duration(
      "long_press", in: longPressRange, wholeSeconds: false, examples: buttonTimeExamples)
    let actions = self.actions(r, hasIdleHook: hasIdleHook)
    guard let chip, let line else { return nil }
    var b = ButtonConfig(chip: chip, line: line)
    b.bias = bias ?? b.bias
    b.activeLow = activeLow ?? b.activeLow
    b.debounce = debounce ?? b.debounce
    b.longPress = longPress ?? b.longPress
    b.actions = actions
    return b
  }

  /// A table's `chip`: a path, name or label (reported when missing or wrong).
  static func gpioChip(_ r: TableReader) -> String? {
    let chip = r.string("chip", maxBytes: TableReader.maxNameBytes)
    if chip == nil && r.table.entry("chip") == nil {
      r.state.error(
        r.anchor, "this \(r.section) has no 'chip' (e.g. chip = \"gpiochip0\" or \"pinctrl-rp1\")")
    }
    return chip
  }

  /// A table's `line`: an offset or a line name (reported when missing or wrong).
  static func gpioLine(_ r: TableReader) -> GPIOLine? {
    var line: GPIOLine?
    if let entry = r.entry("line") {
      switch entry.node.value {
      case .integer(let n) where n >= 0 && n <= Int64(UInt32.max):
        line = .offset(UInt32(n))
      case .string(let name) where !name.isEmpty:
        if r.checkLength(
          name, maxBytes: TableReader.maxNameBytes, at: entry.node.range.start, what: "'line'")
        {
          line = .name(name)
        }
      case .integer(let n):
        r.mismatch(entry, "a line offset from 0 or a line name like \"GPIO17\"", actual: "\(n)")
      default:
        r.mismatch(entry, "a line offset like 17 or a line name like \"GPIO17\"")
      }
    } else {
      r.state.error(r.anchor, "this \(r.section) has no 'line' (e.g. line = 17 or \"GPIO17\")")
    }
    return line
  }

  static func input(_ r: TableReader, hasIdleHook: Bool) -> InputConfig? {
    var device: InputConfig.Device?
    if let text = r.string("device", maxBytes: TableReader.maxPathBytes) {
      if text == "auto" {
        device = .auto
      } else if !text.hasPrefix("/") {
        if let entry = r.table.entry("device") {
          r.mismatch(
            entry,
            "a path like \"/dev/input/event0\", a glob like \"/dev/input/by-id/*-event-kbd\" "
              + "or \"auto\"", actual: quoted(text))
        }
      } else if text.contains(where: { "*?[".contains($0) }) {
        device = .glob(text)
      } else {
        device = .path(text)
      }
    } else if r.table.entry("device") == nil {
      r.state.error(
        r.anchor, "this [[input]] has no 'device' (a path, a glob, or \"auto\")")
    }
    let snooze = keys(r, "snooze")
    let stop = keys(r, "stop")
    if let snooze, let stop {
      if snooze.isEmpty && stop.isEmpty {
        r.state.error(r.anchor, "this [[input]] has no 'snooze' or 'stop' keys")
      }
      for key in stop where snooze.contains(key) {
        if let entry = r.table.entry("stop") {
          r.state.error(
            entry.node.range.start, "\(quoted(key.name)) is in both 'snooze' and 'stop'")
        }
      }
    }
    let grab = r.bool("grab")
    let longPress = r.duration(
      "long_press", in: longPressRange, wholeSeconds: false, examples: buttonTimeExamples)
    let actions = self.actions(r, hasIdleHook: hasIdleHook)
    guard let device, let snooze, let stop else { return nil }
    var input = InputConfig(device: device, snooze: snooze, stop: stop, actions: actions)
    input.grab = grab ?? false
    input.longPress = longPress ?? input.longPress
    return input
  }

  private static func actions(_ r: TableReader, hasIdleHook: Bool) -> PressActions {
    var actions = PressActions()
    if r.table.entry("on_short_press") != nil {
      actions.shortPress = r.choice("on_short_press", of: PressAction.self) ?? actions.shortPress
    }
    if r.table.entry("on_long_press") != nil {
      actions.longPress = r.choice("on_long_press", of: PressAction.self) ?? actions.longPress
    }
    if let idle = r.choice("on_idle_press", of: IdlePressAction.self) {
      actions.idlePress = idle
      if idle == .hook && !hasIdleHook, let entry = r.table.entry("on_idle_press") {
        r.state.error(
          entry.node.range.start,
          "on_idle_press = \"hook\" needs an 'idle_press' command in [hooks]")
      }
    }
    return actions
  }

  /// Key names (`KEY_SPACE`, `BTN_0`), one string or a list; unknown names are
  /// reported with the nearest real one.
  private static func keys(_ r: TableReader, _ key: String) -> [InputKey]? {
    guard let entry = r.entry(key) else { return [] }
    let nodes: [TOMLNode]
    switch entry.node.value {
    case .string: nodes = [entry.node]
    case .array(let array): nodes = array.elements
    default:
      r.mismatch(entry, "a list of key names like [\"KEY_SPACE\"]")
      return nil
    }
    var out: [InputKey] = []
    var ok = true
    for node in nodes {
      guard case .string(let name) = node.value else {
        r.state.error(
          node.range.start, "'\(key)' entries must be key names, not \(node.value.kindDescription)")
        ok = false
        continue
      }
      guard let code = KeyCodes.byName[name] else {
        var message = "unknown key name \(quoted(name)) in '\(key)'"
        if let guess = guessKey(name) { message += "; did you mean \(quoted(guess))?" }
        r.state.error(node.range.start, message)
        ok = false
        continue
      }
      if name == "KEY_POWER" {
        r.state.warning(
          node.range.start,
          "KEY_POWER is usually taken by systemd-logind (it may power the machine off); "
            + "use e.g. KEY_STOP")
      }
      out.append(InputKey(name: name, code: code))
    }
    return ok ? out : nil
  }

  private static func guessKey(_ name: String) -> String? {
    let upper = name.uppercased()
    for candidate in [upper, "KEY_" + upper] where KeyCodes.byName[candidate] != nil {
      return candidate
    }
    return Suggestion.closest(to: name, in: KeyCodes.byName.keys.sorted())
  }
}
