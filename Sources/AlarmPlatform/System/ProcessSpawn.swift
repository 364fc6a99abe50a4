import CShim

#if canImport(Glibc)
  import Glibc
#endif

/// Starting a child process: posix_spawn without a shell, in a process group of its own.
/// Hooks, espeak-ng and the stream helper all start here.
public enum ProcessSpawn {
  /// Spawns `file` with `argv` and `environment` (`NAME=value` strings): stdin is `stdin`
  /// (nil: /dev/null), stdout `stdout`, stderr `stderr` (nil: the caller's), every other
  /// descriptor is closed, the signal mask is empty and every signal has its default
  /// action (the service blocks SIGTERM/SIGINT/SIGHUP for its signalfd and ignores
  /// SIGPIPE; a child must not inherit either; SIGCHLD is not blocked: exits are seen
  /// through pidfds), and the child leads a new process group (so a kill reaches its
  /// children). Returns the child's pid, which is also its process group id.
  public static func spawn(
    file: String, argv: [String], environment: [String], stdin: Int32?, stdout: Int32,
    stderr: Int32?
  ) throws(SystemError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
    defer { posix_spawn_file_actions_destroy(&actions) }
    try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
    defer { posix_spawnattr_destroy(&attributes) }

    if let stdin {
      try check(
        "posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, stdin, 0))
    } else {
      try check(
        "posix_spawn_file_actions_addopen(/dev/null)",
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
    }
    try check(
      "posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, stdout, 1))
    if let stderr {
      try check(
        "posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, stderr, 2))
    }
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

  /// posix_spawn's functions return an error number instead of setting errno.
  private static func check(_ call: String, _ rc: Int32) throws(SystemError) {
    if rc != 0 { throw SystemError(call, errno: rc) }
  }
}
