import AlarmCore
import Glibc

/// The devices of one `[[input]]` entry: opens every match of its selector,
/// again whenever the hot-plug watch reports a change, and forgets devices
/// that go away. Owned by the event loop (not thread-safe).
public final class EvdevInputGroup {
  public let selector: InputDeviceSelector
  public let bindings: [KeyBinding]
  public let grab: Bool
  private let inputDirectory: String
  private let hasKeys: (String) -> Bool
  /// Open devices by their resolved path (a by-id link and its eventN are one device).
  public private(set) var sources: [String: EvdevKeySource] = [:]
  private var reported: [String: InputError] = [:]

  /// What a rescan did, for the log.
  public struct Rescan: Sendable {
    /// Newly opened: register their fds with the loop.
    public var opened: [EvdevDevice] = []
    /// New failures (each reported once until it changes or the device opens).
    public var failures: [InputError] = []
    /// Warnings of the newly opened devices (failed grab, unbound keys).
    public var warnings: [String] = []
  }

  public init(
    selector: InputDeviceSelector, bindings: [KeyBinding], grab: Bool,
    inputDirectory: String = "/dev/input",
    hasKeys: @escaping (String) -> Bool = InputDeviceSelector.reportsKeys
  ) {
    self.selector = selector
    self.bindings = bindings
    self.grab = grab
    self.inputDirectory = inputDirectory
    self.hasKeys = hasKeys
  }

  /// Directories to give `InputHotplugWatch`.
  public var watchDirectories: [String] {
    selector.watchDirectories(inputDirectory: inputDirectory)
  }

  /// Whether any device is open (for `status`).
  public var isAvailable: Bool { !sources.isEmpty }

  /// Opens every match not open yet. A configured path that is missing is a
  /// failure; an empty glob or `auto` is not (nothing is plugged in yet).
  public func rescan() -> Rescan {
    var result = Rescan()
    let matches = selector.matches(inputDirectory: inputDirectory, hasKeys: hasKeys)
    if case .path(let p) = selector, matches.isEmpty, sources.isEmpty {
      report(.deviceNotFound(p), for: p, into: &result)
    }
    for path in matches {
      let key = EvdevInputGroup.resolved(path)
      guard sources[key] == nil else { continue }
      do {
        let device = try EvdevDevice(path: path, grab: grab)
        let source = EvdevKeySource(device: device, bindings: bindings)
        sources[key] = source
        reported[key] = nil
        reported[path] = nil
        result.opened.append(device)
        result.warnings += device.warnings
        let missing = source.unsupportedCodes
        if !missing.isEmpty {
          let names = missing.map { KeyCodes.describe(UInt16(clamping: $0)) }
          let list = names.joined(separator: ", ")
          result.warnings.append("\(path) (\(device.name)) has no \(list): those keys do nothing")
        }
      } catch {
        // `auto` tried a node that is not for us; only named devices complain.
        if case .auto = selector, case .notAKeyDevice = error { continue }
        report(error, for: key, into: &result)
      }
    }
    return result
  }

  /// The source reading `fd`, if it belongs to this group.
  public func path(forFD fd: Int32) -> String? {
    sources.first { $0.value.fd == fd }?.key
  }

  /// Feeds the source at `path` (its fd is readable). A `.closed` signal
  /// removes it; the caller unregisters the fd before that (it is closed
  /// when the device object goes).
  public func readable(path: String) -> [InputSignal] {
    guard var source = sources[path] else { return [] }
    let signals: [InputSignal]
    do {
      signals = try source.readable()
    } catch {
      sources[path] = nil
      return [.closed]
    }
    sources[path] = signals.contains(.closed) ? nil : source
    return signals
  }

  /// Forgets the device at `path` (it was removed: a FIFO never reads end of
  /// file), returning it so the caller can unregister its fd first.
  @discardableResult
  public func remove(path: String) -> EvdevDevice? {
    guard let source = sources.removeValue(forKey: path) else { return nil }
    return source.device
  }

  /// The earliest long-press deadline over all devices.
  public var deadline: UInt64? { sources.values.compactMap(\.deadline).min() }

  /// The threshold timer fired: drains and checks every device.
  public func timerFired(now: UInt64) -> [InputSignal] {
    var out: [InputSignal] = []
    for path in sources.keys.sorted() {
      guard var source = sources[path] else { continue }
      let signals = (try? source.timerFired(now: now)) ?? [.closed]
      sources[path] = signals.contains(.closed) ? nil : source
      out += signals
    }
    return out
  }

  private func report(_ error: InputError, for key: String, into result: inout Rescan) {
    guard reported[key] != error else { return }
    reported[key] = error
    result.failures.append(error)
  }

  static func resolved(_ path: String) -> String {
    guard let p = realpath(path, nil) else { return path }
    defer { free(p) }
    return String(cString: p)
  }
}
