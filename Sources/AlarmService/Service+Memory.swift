import AlarmFiles
import AlarmPlatform

/// The idle service's resident memory (docs/performance.md, "Idle").
extension Service {
  /// After a ring stops, an audio check ends or the config is reloaded.
  static let pageReleaseDelay: Duration = .seconds(2)
  /// After a control request: long enough that a client polling (the web page asks every
  /// 3 s) does not make every poll fault the code back in.
  static let pageReleaseAfterRequest: Duration = .seconds(30)

  /// Start-up's code (argument and config parsing, the first round of events, and the
  /// neighbours fault-around mapped with them) is not needed while idle, nor is a ring's
  /// (the audio libraries', the decoder's) once it is over, nor a request's or a
  /// reload's: unmap the clean file pages and trim the heap (`IdlePages`; the file pages
  /// stay in the page cache) 2 s after READY=1, and then a while after each of those
  /// (`releasePagesSoon`). Never while a ring is prepared or sounding: its code stays
  /// mapped.
  func startReleasingPages() {
    guard let timer = try? TimerFd(clock: .monotonic) else { return }
    do throws(SystemError) {
      try loop.register(timer.descriptor, interest: .readable) { [unowned self] _ in
        _ = try? timer.read()
        self.pageReleaseDue = nil
        // Busy: the ring's stop arms this again (no polling: idle means no wake-ups).
        if self.engine.state.session != nil || self.ring.prepared != nil { return }
        let released = IdlePages.release(executable: executablePath())
        self.pageReleases += 1
        self.log.debug(
          "released \(released.executableKiB) KiB of the executable's pages and "
            + "\(released.librariesKiB) KiB of the libraries'")
      }
      pageRelease = timer
      releasePagesSoon(after: Service.pageReleaseDelay)
    } catch {
      loop.unregister(timer.descriptor)
    }
  }

  /// Releases the pages `delay` from now, unless a release is due sooner: the earliest
  /// wins, so a request's 30 s never puts off the release after a ring, and one release
  /// covers every event before it. One timerfd_settime at most.
  func releasePagesSoon(after delay: Duration = Service.pageReleaseDelay) {
    guard let timer = pageRelease else { return }
    let due = TimerFd.Clock.monotonic.now() + delay
    if let pending = pageReleaseDue, pending <= due { return }
    do throws(SystemError) {
      try timer.arm(after: delay)
      pageReleaseDue = due
    } catch {
      pageReleaseDue = nil
    }
  }
}
