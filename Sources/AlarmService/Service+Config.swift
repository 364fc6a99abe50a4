import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Watching the config (and the system zone) and applying good edits.
extension Service {
  func startWatching() {
    do throws(SystemError) {
      let w = try FileWatch(path: paths.config)
      try loop.register(w.descriptor, interest: .readable) { [unowned self] _ in
        self.configDirectoryChanged()
      }
      watch = w
    } catch {
      log.warning(
        "cannot watch \(paths.config) for changes (\(error)); use SIGHUP or 'alarmclock reload'")
    }
  }

  /// `timedatectl set-timezone` replaces /etc/localtime; alarms follow at once. (Only
  /// when neither `timezone` nor `TZ` fixes the zone.)
  func startWatchingSystemZone() {
    guard environment["TZ"] == nil else { return }
    do throws(SystemError) {
      let w = try FileWatch(path: "/etc/localtime")
      try loop.register(w.descriptor, interest: .readable) { [unowned self] _ in
        guard let changes = try? w.read(), changes.contains(where: { $0 != .removed }) else {
          return
        }
        guard self.config.settings.timezone == nil else { return }
        self.log.notice("the system time zone changed")
        self.reloadConfig(reason: "system time zone changed", force: true, reread: true)
      }
      zoneWatch = w
    } catch {
      log.info(
        "not watching /etc/localtime (\(error)): a new system time zone applies after a restart")
    }
  }

  func configDirectoryChanged() {
    guard let w = watch, let changes = try? w.read() else { return }
    if changes.contains(.directoryGone) {
      // Replaced (a new directory renamed over it): watch the new one at once.
      if (try? w.rewatch()) != nil {
        reloadConfig(reason: "config directory replaced", force: false)
      } else {
        log.warning(
          "the config's directory went away; edits are seen again after SIGHUP or "
            + "'alarmclock reload' once it is back")
      }
    }
    if changes.contains(.written) || changes.contains(.overflow) {
      reloadConfig(reason: "file changed", force: false)
    } else if changes.contains(.removed) {
      log.warning("\(paths.config) was removed; the config in force stays")
    }
  }

  /// Reads the config again; a good one replaces the one in force at once.
  @discardableResult
  func reloadConfig(reason: String, force: Bool, reread: Bool = false) -> ConfigKeeper.Outcome {
    let now = clock.now()
    let before = config.settings
    if let w = watch, !w.isWatching, (try? w.rewatch()) != nil {
      log.notice("watching \(paths.config) for changes again")
    }
    let outcome = configs.reload(now: now, force: reread)
    releasePagesSoon()  // parsing mapped the TOML reader's code again
    switch outcome {
    case .unchanged:
      if force {
        log.info("config unchanged")
        calendarsChanged(reread: true)
      }
    case .rejected(let errors):
      for e in errors { log.error(e) }
      log.error("config rejected (\(reason)); the last good config stays in force")
      try? notify?.status("config has errors; running the last good config")
    case .applied(let warnings):
      for w in warnings { log.warning(w) }
      engine.options = Service.engineOptions(config)
      calendars.use(configs.current.calendars, today: zone.local(at: now).date)
      perform(
        engine.reload(alarms: config.alarms, source: schedule(config, zone: zone), now: now))
      if config.settings.stateDir != before.stateDir || config.settings.socket != before.socket {
        log.notice("state_dir and socket changes apply after a restart")
      }
      applyInputs()
      applyBuzzer()
      // The devices may have changed: check them again before the next alarm.
      ring.forgetCheck()
      let n = config.alarms.count
      log.notice("config applied (\(reason)): \(n) alarm\(n == 1 ? "" : "s")")
      try? notify?.status(readyStatus())
      // The reload's actions ran first (above): the inputs and buzzer follow the new config
      // before the plan is made again.
      settle([], now: now, invalidate: true)
    }
    return outcome
  }

  func readyStatus() -> String {
    let now = clock.now()
    guard let f = engine.upcoming(after: now, count: 1).first else {
      return "ready: no alarm is set"
    }
    let label = engine.alarms[f.alarmID]?.label ?? f.alarmID
    return "ready: next \(label) at \(ISO8601Text.format(f.at, in: zone))"
  }
}
