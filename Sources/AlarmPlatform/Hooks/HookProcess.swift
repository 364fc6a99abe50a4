import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// How a hook's process ended.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
  /// It called exit (or returned from main) with this status.
  case exited(Int32)
  /// A signal killed it.
  case signaled(Int32)
  /// Something else in the process reaped it (a stray `waitpid(-1)`): the status is lost.
  case unknown

  /// Decodes a waitpid(2) status (the WIFEXITED/WTERMSIG encoding, which Swift cannot
  /// import as macros: the low 7 bits are the signal, 0 for a normal exit).
  init(waitStatus status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }

  /// True for `exited(0)`.
  public var isSuccess: Bool { self == .exited(0) }

  /// `exited with status 3`, `killed by signal 15 (Terminated)`.
  public var description: String {
    switch self {
    case .exited(let code): return "exited with status \(code)"
    case .signaled(let signal):
      let name = strsignal(signal).map { String(cString: $0) } ?? "unknown"
      return "killed by signal \(signal) (\(name))"
    case .unknown: return "ended with an unknown status (reaped elsewhere)"
    }
  }
}

/// Starting a hook's process: posix_spawn without a shell, in a process group of its own.
enum HookProcess {
  /// The search path when the environment has no PATH (glibc's execvp default, plus
  /// /usr/local/bin where people put their own scripts).
  static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

  /// The file to execute for `program`: itself when it contains a `/`, else the first
  /// executable regular file named `program` in `path` (empty entries mean the current
  /// directory, as for execvp). Nil when there is none.
  static func resolve(_ program: String, path: String?) -> String? {
    if program.contains("/") { return program }
    guard !program.isEmpty else { return nil }
    let directories = (path ?? defaultPath).split(separator: ":", omittingEmptySubsequences: false)
    for directory in directories {
      let candidate = directory.isEmpty ? program : "\(directory)/\(program)"
      var st = stat()
      guard stat(candidate, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// Spawns `file` with `argv` and `environment` (`NAME=value` strings): stdin is
  /// /dev/null, stdout and stderr go to `output`, every other descriptor is closed, the
  /// signal mask is empty and every signal has its default action (the service blocks
  /// SIGTERM/SIGINT/SIGHUP for its signalfd and ignores SIGPIPE; a child must not inherit
  /// either; SIGCHLD is not blocked: exits are seen through pidfds), and the child leads a new process group (so a kill reaches its
  /// children). Returns the child's pid, which is also its process group id.
  static func spawn(
    file: String, argv: [String], environment: [String], output: FileDescriptor
  ) throws(SystemError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
    defer { posix_spawn_file_actions_destroy(&actions) }
    try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
    defer { posix_spawnattr_destroy(&attributes) }

    let out = output.rawValue
    try check(
      "posix_spawn_file_actions_addopen(/dev/null)",
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
    try check(
      "posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, out, 1))
    try check(
      "posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, out, 2))
    // Everything the service opens is O_CLOEXEC; this also covers what libraries (ALSA)
    // or the service's own parent left without it.
    try check("posix_spawn_file_actions_addclosefrom_np", cshim_spawn_addclosefrom(&actions, 3))

    var empty = sigset_t()
    var all = sigset_t()
    sigemptyset(&empty)
    sigfillset(&all)
    let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    try check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, Int16(flags)))
    try check("posix_spawnattr_setpgroup", posix_spawnattr_setpgroup(&attributes, 0))
    try check("posix_spawnattr_setsigmask", posix_spawnattr_setsigmask(&attributes, &empty))
    try check("posix_spawnattr_setsigdefault", posix_spawnattr_setsigdefault(&attributes, &all))

    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnvironment = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in cArgv { free(pointer) }
      for pointer in cEnvironment { free(pointer) }
    }
    var pid: pid_t = 0
    // glibc's posix_spawn (clone + CLONE_VFORK) returns only after the exec, and returns
    // the exec's error (ENOENT, EACCES, ENOEXEC) itself, having reaped the failed child.
    let rc = posix_spawn(&pid, file, &actions, &attributes, cArgv, cEnvironment)
    try check("posix_spawn(\(file))", rc)
    return pid
  }

  /// Sends `signal` to the process group `group`; false when no member is left.
  @discardableResult
  static func signalGroup(_ group: pid_t, _ signal: Int32) -> Bool {
    kill(-group, signal) == 0
  }

  /// Reaps `pid` if it has exited, without waiting. Nil while it still runs.
  static func reap(_ pid: pid_t) -> ExitStatus? {
    var status: Int32 = 0
    // ECHILD (someone else reaped it): report that rather than wait forever.
    guard let rc = try? retryingEINTR("waitpid(\(pid))", { waitpid(pid, &status, WNOHANG) })
    else { return .unknown }
    return rc == pid ? ExitStatus(waitStatus: status) : nil  // 0: still running
  }

  /// posix_spawn's functions return an error number instead of setting errno.
  private static func check(_ call: String, _ rc: Int32) throws(SystemError) {
    if rc != 0 { throw SystemError(call, errno: rc) }
  }
}
