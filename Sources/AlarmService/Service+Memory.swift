import AlarmPlatform

/// The idle service's resident memory (docs/performance.md, "Idle").
extension Service {
  /// Start-up's code (argument and config parsing, the first round of events, and the
  /// neighbours fault-around mapped with them) is not needed while idle, nor is a ring's
  /// (the audio libraries', the decoder's) once it is over, nor a request's or a
  /// reload's: 2 s after READY=1, and 2 s after each ring stops, audio check ends, control
  /// request or config reload, unmap the clean file pages and trim the heap (`IdlePages`;
  /// the file pages stay in the page cache). Never while a ring is prepared or sounding:
  /// its code stays mapped.
  func startReleasingPages() {
    guard let timer = try? TimerFd(clock: .monotonic) else { return }
    do throws(SystemError) {
      try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? timer.read()
        // Busy: the ring's stop arms this again (no polling: idle means no wake-ups).
        if self.engine.state.session != nil || self.prepared != nil { return }
        let released = IdlePages.release(executable: executablePath())
        self.log.debug(
          "released \(released.executableKiB) KiB of the executable's pages and "
            + "\(released.librariesKiB) KiB of the libraries'")
      }
      try timer.arm(after: .seconds(2))
      pageRelease = timer
    } catch {
      loop.unregister(timer.descriptor)
    }
  }

  /// After a ring, an audio check, a request or a reload: release the pages it mapped once
  /// the service has been idle for 2 s (a later call moves the release on).
  func releasePagesSoon() {
    try? pageRelease?.arm(after: .seconds(2))
  }
}
