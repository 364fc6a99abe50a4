import AlarmCore
import AlarmFiles
import AlarmPlatform

/// The `skip_calendars` files in force and their days off. Each file is watched (through
/// its directory, like the config) and read again when it changes; a file that cannot be
/// read or parsed keeps its last good version (logged). The days-off table covers
/// `today - 1 ... today + 400` and is rebuilt once today passes its middle (an hourly
/// check), so a firing is never looked up past what the table knows.
final class CalendarKeeper {
  private(set) var files: [String: ICalendarFile]
  private var bytes: [String: [UInt8]]
  private(set) var daysOff: DaysOff
  private var watches: [String: FileWatch] = [:]
  private var timer: TimerFd?
  private weak var loop: EventLoop?
  private let log: Logger
  /// Called when a file may have changed (true: read them again) or the hourly window
  /// check is due (false).
  var changed: (Bool) -> Void = { _ in }

  init(_ loaded: SkipCalendarFiles.Loaded, today: LocalDate, log: Logger) {
    files = loaded.files
    bytes = loaded.bytes
    daysOff = DaysOff(files: loaded.files, today: today)
    self.log = log
  }

  /// Watches the files and starts the hourly window check.
  func start(loop: EventLoop) {
    self.loop = loop
    watchFiles()
    updateTimer()
  }

  /// Whether the hourly window check is armed: only while a calendar is in force (without
  /// one it would wake the process for nothing).
  var checksWindow: Bool { timer != nil }

  private func updateTimer() {
    guard let loop else { return }
    if files.isEmpty {
      if let t = timer { loop.unregister(t.descriptor) }
      timer = nil
      return
    }
    guard timer == nil else { return }
    do throws(SystemError) {
      let t = try TimerFd(clock: .monotonic)
      try t.arm(after: .seconds(3600), repeating: .seconds(3600))
      try loop.register(t.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? t.read()
        self.changed(false)
      }
      timer = t
    } catch {
      log.warning("calendar window timer: \(error); days off are renewed on reload")
    }
  }

  /// Takes the calendars read with a newly applied config.
  func use(_ loaded: SkipCalendarFiles.Loaded, today: LocalDate) {
    files = loaded.files
    bytes = loaded.bytes
    daysOff = DaysOff(files: files, today: today)
    watchFiles()
    updateTimer()
  }

  /// Rebuilds the table when today left its first half; true when it did.
  func renewIfStale(today: LocalDate) -> Bool {
    guard daysOff.isStale(today: today) else { return false }
    daysOff = DaysOff(files: files, today: today)
    log.info("calendar days off renewed from \(today.adding(days: -1))")
    return true
  }

  /// Reads every file again (SIGHUP, reload, a change seen); true when the table changed.
  @discardableResult
  func reread(today: LocalDate) -> Bool {
    var any = false
    for path in files.keys.sorted() {
      switch SkipCalendarFiles.read(path) {
      case .failure(let why):
        log.error("skip calendar \(path): \(why); its last good version stays in force")
      case .success(let new) where new != bytes[path]:
        let file = ICalendarFile.parse(new)
        for w in file.warnings { log.warning(w.formatted(path: path)) }
        files[path] = file
        bytes[path] = new
        log.notice("skip calendar \(path) read again: \(file.events.count) all-day events")
        any = true
      case .success: break
      }
    }
    guard any || daysOff.isStale(today: today) else { return false }
    daysOff = DaysOff(files: files, today: today)
    return true
  }

  private func watchFiles() {
    guard let loop else { return }
    for (path, w) in watches where files[path] == nil {
      loop.unregister(w.descriptor)
      watches[path] = nil
    }
    for path in files.keys where watches[path] == nil {
      do throws(SystemError) {
        let w = try FileWatch(path: path)
        try loop.register(w.descriptor, interest: .readable) { [unowned self] _ in
          guard let changes = try? w.read() else { return }
          if changes.contains(.directoryGone) {
            do throws(SystemError) {
              try w.rewatch()
            } catch {
              self.log.warning(
                "cannot watch \(path) again (\(error)); use SIGHUP or 'alarmclock reload'")
            }
          }
          guard changes.contains(where: { $0 == .written || $0 == .overflow }) else { return }
          self.changed(true)
        }
        watches[path] = w
      } catch {
        log.warning(
          "cannot watch \(path) for changes (\(error)); use SIGHUP or 'alarmclock reload'")
      }
    }
  }
}
