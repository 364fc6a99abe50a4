import AlarmPlatform

/// systemd's watchdog: WATCHDOG=1 every WATCHDOG_USEC / 2 from the event loop, so a loop
/// that hangs stops the pings and systemd restarts the service.
extension Service {
  /// Arms the ping timer when systemd asks for pings (`WatchdogSec=`).
  func startWatchdog() {
    guard let interval = SdNotify.watchdogInterval(environment: Environment(environment)) else {
      return
    }
    do throws(SystemError) {
      let t = try TimerFd(clock: .monotonic)
      try t.arm(after: interval, repeating: interval)
      try loop.register(t.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? t.read()
        do throws(SystemError) {
          try self.notify?.watchdog()
          self.watchdogFailing = false
        } catch {
          // Once per run of failures: systemd kills the service when they go on.
          if !self.watchdogFailing {
            self.log.error("cannot tell systemd the service is alive (WATCHDOG=1): \(error)")
          }
          self.watchdogFailing = true
        }
      }
      watchdog = t
    } catch {
      log.warning("watchdog timer: \(error)")
    }
  }
}
