import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// The scheduling the service asks for on the ring path: a real-time policy for the
/// threads that start and stop the sound, so a busy machine (a build, a client flooding
/// the control socket) cannot delay an alarm or the button that silences it.
///
/// The priorities are low among real-time ones (PipeWire's data thread uses 88, the
/// kernel's own threads 50): the service needs to run before ordinary processes, not
/// before interrupt handling. `deploy/alarmclock.service` grants exactly the highest of
/// them with `LimitRTPRIO=`; a system that refuses keeps the service running at normal
/// priority, with one warning in the log (`ThreadPriority.Outcome.message`).
public enum ThreadPriority {
  /// The ringer's playback thread (decodes, fades, writes to ALSA).
  public static let playback: Int32 = 10
  /// The service's event loop (timers, buttons, the control socket).
  public static let eventLoop: Int32 = 5

  // <bits/sched.h> defines it under _GNU_SOURCE only, which Swift's Glibc does not import.
  static let resetOnFork: Int32 = 0x4000_0000

  /// What `raiseCallingThread` did.
  public enum Outcome: Equatable, Sendable {
    case raised(priority: Int32)
    case refused(SystemError)

    /// The log line for `thread` ("playback thread"): info when raised, the reason and the
    /// way out when refused.
    public func message(thread: String) -> String {
      switch self {
      case .raised(let priority):
        return "\(thread): real-time priority \(priority) (SCHED_FIFO)"
      case .refused(let error):
        return "\(thread): real-time priority refused (\(error)); it runs at normal "
          + "priority, and a busy machine can delay rings and the button: allow it with "
          + "LimitRTPRIO=\(ThreadPriority.playback) in the unit (deploy/alarmclock.service "
          + "sets it) or an rtprio limit in /etc/security/limits.conf"
      }
    }
  }

  /// Puts the calling thread under SCHED_FIFO at `priority`, with SCHED_RESET_ON_FORK so
  /// the processes it starts (hooks) run at normal priority, and sets its timer slack to
  /// the minimum so its poll timeouts are not rounded up by the kernel's default 50 µs.
  ///
  /// Needs RLIMIT_RTPRIO >= `priority` or CAP_SYS_NICE, and a seccomp filter that allows
  /// sched_setscheduler (systemd's `RestrictRealtime=` does not).
  public static func raiseCallingThread(to priority: Int32) -> Outcome {
    _ = cshim_set_timer_slack(1)  // 0 would mean "back to the process default"
    var param = sched_param()
    param.sched_priority = priority
    // pid 0: on Linux the calling thread, not the whole process.
    let rc = sched_setscheduler(0, SCHED_FIFO | resetOnFork, &param)
    if rc != 0 {
      return .refused(SystemError.current("sched_setscheduler(SCHED_FIFO, \(priority))"))
    }
    return .raised(priority: priority)
  }

  /// A thread's scheduling: its policy (SCHED_OTHER, SCHED_FIFO, ...; without the
  /// reset-on-fork flag) and its real-time priority (0 for the normal policies).
  public struct Scheduling: Equatable, Sendable {
    public var policy: Int32
    public var priority: Int32
  }

  /// The calling thread's scheduling.
  public static func current() -> Scheduling {
    var param = sched_param()
    let policy = sched_getscheduler(0) & ~resetOnFork
    _ = sched_getparam(0, &param)
    return Scheduling(policy: policy, priority: param.sched_priority)
  }

  /// Puts the calling thread back to `scheduling` (what `current()` read before a raise),
  /// so a thread lent to the service (a test's, an embedder's) is returned as it came.
  public static func restore(_ scheduling: Scheduling) {
    var param = sched_param()
    param.sched_priority = scheduling.priority
    _ = cshim_set_timer_slack(0)  // back to the process default
    // Dropping to a lower or normal policy is always permitted.
    _ = sched_setscheduler(0, scheduling.policy, &param)
  }

  /// The calling thread's timer slack in nanoseconds (-1 if it cannot be read).
  public static func timerSlack() -> Int { cshim_timer_slack() }
}
