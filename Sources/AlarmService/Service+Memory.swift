import AlarmPlatform

/// The idle service's resident memory (docs/performance.md, "Idle").
extension Service {
  /// Start-up's code (argument and config parsing, the first round of events, and the
  /// neighbours fault-around mapped with them) is not needed while idle: once start-up
  /// has settled, unmap it (`StartupPages`; it stays in the page cache). Never while a
  /// ring is prepared or sounding: its code stays mapped.
  func releaseStartupPagesLater(after delay: Duration = .seconds(2)) {
    guard let timer = try? TimerFd(clock: .monotonic), (try? timer.arm(after: delay)) != nil
    else { return }
    do throws(SystemError) {
      try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
        self.loop.unregister(timer.descriptor)
        timer.descriptor.close()
        if self.engine.state.session != nil || self.prepared != nil {
          self.releaseStartupPagesLater(after: .seconds(60))
          return
        }
        let released = StartupPages.release(executable: executablePath())
        self.log.debug("released \(released) KiB of start-up pages")
      }
    } catch {
      timer.descriptor.close()
    }
  }
}
