import Glibc

/// Which evdev devices an `[[input]]` entry means.
public enum InputDeviceSelector: Sendable, Hashable, CustomStringConvertible {
  /// One device node or symlink, e.g. `/dev/input/by-id/usb-...-event-kbd`.
  case path(String)
  /// A glob(7) pattern, e.g. `/dev/input/by-id/*-event-kbd`.
  case glob(String)
  /// Every `event*` device in the input directory that reports keys.
  case auto

  /// `auto`, a pattern with `*?[`, or a plain path.
  public init(_ text: String) {
    if text == "auto" {
      self = .auto
    } else if text.contains(where: { "*?[".contains($0) }) {
      self = .glob(text)
    } else {
      self = .path(text)
    }
  }

  public var description: String {
    switch self {
    case .path(let p): return p
    case .glob(let g): return g
    case .auto: return "auto"
    }
  }

  /// The directories whose changes can add or remove a match: the hot-plug
  /// watch list for this selector.
  public func watchDirectories(inputDirectory: String = "/dev/input") -> [String] {
    switch self {
    case .auto: return [inputDirectory]
    case .path(let p), .glob(let p):
      let parent = InputDeviceSelector.parent(of: p)
      return parent == inputDirectory ? [parent] : [inputDirectory, parent]
    }
  }

  /// The paths that match now, sorted, without opening them. For `.auto`,
  /// `hasKeys` decides (by default: EVIOCGBIT(EV_KEY) reports any key); a
  /// `.path` matches if it exists.
  public func matches(
    inputDirectory: String = "/dev/input",
    hasKeys: (String) -> Bool = InputDeviceSelector.reportsKeys
  ) -> [String] {
    switch self {
    case .path(let p):
      return access(p, F_OK) == 0 ? [p] : []
    case .glob(let pattern):
      return InputDeviceSelector.expand(pattern)
    case .auto:
      return InputDeviceSelector.expand(inputDirectory + "/event*").filter(hasKeys)
    }
  }

  /// Whether the node at `path` is an evdev device with keys.
  public static func reportsKeys(_ path: String) -> Bool {
    guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return false }
    return !(EvdevDevice.keyBits(fd)?.isEmpty ?? true)
  }

  static func expand(_ pattern: String) -> [String] {
    var g = glob_t()
    defer { globfree(&g) }
    guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }  // GLOB_NOMATCH etc.
    var out: [String] = []
    for i in 0..<Int(g.gl_pathc) {
      if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
    }
    return out.sorted()
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
