#if canImport(Glibc)
  import Glibc
#endif

/// The process's open-descriptor limit (RLIMIT_NOFILE).
public enum FileLimit {
  /// The soft limit now in force.
  public static var current: Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
    return Int(clamping: limit.rlim_cur)
  }

  /// Raises the soft limit to the hard one (systemd's default soft limit of 1024 is there
  /// for select(2), which nothing here uses) and returns the soft limit then in force.
  @discardableResult
  public static func raiseToHard() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      // An unlimited hard limit is above the kernel's nr_open: settle for 64 Ki.
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 && limit.rlim_cur < 65536 {
        raised.rlim_cur = min(limit.rlim_max, 65536)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
      }
    }
    return current
  }
}
