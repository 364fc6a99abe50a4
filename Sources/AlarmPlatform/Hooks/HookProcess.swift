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
  /// /dev/null, stdout and stderr go to `output` (see `ProcessSpawn.spawn`).
  static func spawn(
    file: String, argv: [String], environment: [String], output: FileDescriptor
  ) throws(SystemError) -> pid_t {
    try ProcessSpawn.spawn(
      file: file, argv: argv, environment: environment, stdin: nil, stdout: output.rawValue,
      stderr: output.rawValue)
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
}
