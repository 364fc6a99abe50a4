/// The documented rule for a `sound` value, shared by the config check and the resolver.
///
/// A value starting with `/` or `./` is a path (absolute, or relative to the working
/// directory) and is used as it is. One starting with `http://` or `https://` is a stream
/// (`StreamURL`). Anything else is a name looked up inside the sound directories and may
/// not leave them: no `..`, `.` or empty parts.
public enum SoundName {
  /// Whether `value` is a path rather than a name in the sound directories.
  public static func isPath(_ value: String) -> Bool {
    value.hasPrefix("/") || value.hasPrefix("./")
  }

  /// Why `value` cannot name a sound inside a sound directory, or nil when it can (or is
  /// a path, or a stream's well-formed URL).
  public static func problem(_ value: String) -> String? {
    if StreamURL.isStream(value) { return StreamURL.problem(value) }
    // A newline, an escape or a NUL would reach the log and the status output raw.
    if let c = value.unicodeScalars.first(where: {
      $0.value < 0x20 || (0x7f...0x9f).contains($0.value)
    }) {
      let code = String(c.value, radix: 16, uppercase: true)
      return
        "a sound name must not contain control characters (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code))"
    }
    if isPath(value) { return nil }
    if value.isEmpty { return "a sound name must not be empty" }
    var parts = value.split(separator: "/", omittingEmptySubsequences: false)
    // `mornings/` names a folder; one trailing slash is allowed.
    if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
    if parts.contains("..") {
      return "sound name '\(value)' would leave its sound directory ('..');"
        + " give a name inside the sound directories, or a path starting with / or ./"
    }
    if parts.contains(where: { $0 == "." || $0.isEmpty }) {
      return "sound name '\(value)' has an empty or '.' part; write it as dir/name"
    }
    return nil
  }

  /// Why `value` cannot be a `fallback_sound`: it must be a file or folder (the fallback
  /// rings when the network cannot), else the rule of `problem`.
  public static func fallbackProblem(_ value: String) -> String? {
    if StreamURL.isStream(value) {
      return "'fallback_sound' must be a file or folder on this machine, not a stream: "
        + "it rings when the network cannot"
    }
    return problem(value)
  }
}
