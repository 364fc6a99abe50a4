import AlarmCore

#if canImport(Glibc)
  import Glibc
#endif

/// Finds the file for a sound name in the sound directories.
///
/// A name is looked up in each directory in order, as given and then with each of
/// `extensions` appended (`rooster` finds `rooster.mp3`); names may be any Unicode text.
/// A name starting with `/` or `./` is a path (absolute, or relative to the working
/// directory) and is used as it is. Anything else is a name inside a directory and may
/// not leave it (`SoundName`): `.`/`..`/empty components are refused, and the file's real
/// path (symlinks resolved) must lie inside the directory's real path. A refused name is
/// never opened: the caller rings the fallback tone (`RingRequest.unplayable`).
public struct SoundResolver: Sendable {
  /// The directories searched, first match wins.
  public var directories: [String]
  /// Extensions tried after the bare name, in order.
  public static let extensions = ["wav", "mp3", "flac", "ogg", "opus"]
  /// The name of the bundled sound rung when an alarm names none.
  public static let defaultSoundName = "chime-rise"

  public init(directories: [String]) { self.directories = directories }

  /// The searched directories for a binary at `executablePath`: `/etc/alarmclock/sounds`
  /// (the user's), then the bundled sounds: `<prefix>/share/alarmclock/sounds` for a
  /// binary installed in `<prefix>/bin`, or the repository's `sounds/` for a binary run
  /// from `.build/<config>/`.
  public static func defaultDirectories(executablePath: String) -> [String] {
    var dirs = ["/etc/alarmclock/sounds"]
    var parts = executablePath.split(separator: "/", omittingEmptySubsequences: false).map(
      String.init)
    guard parts.count >= 2 else { return dirs }
    parts.removeLast()  // the binary
    let binDir = parts
    if let build = binDir.lastIndex(of: ".build") {
      dirs.append((binDir[..<build] + ["sounds"]).joined(separator: "/"))
    } else if binDir.last == "bin" {
      dirs.append((binDir.dropLast() + ["share", "alarmclock", "sounds"]).joined(separator: "/"))
    } else {
      dirs.append((binDir + ["sounds"]).joined(separator: "/"))
    }
    return dirs.map { $0.isEmpty ? "/" : $0 }
  }

  /// The path of the sound called `name`, or why there is none.
  public func resolve(_ name: String) throws(SoundError) -> String {
    if SoundName.isPath(name) {
      guard isRegularFile(name) else {
        throw SoundError(file: name, reason: fileExists(name) ? .notAFile : .missing)
      }
      return name
    }
    // The config check refuses such names too (`SoundName.problem`); never opened.
    guard SoundName.problem(name) == nil else {
      throw SoundError(file: name, reason: .escapesDirectory)
    }
    var escaped = false
    for dir in directories {
      for candidate in [name] + SoundResolver.extensions.map({ "\(name).\($0)" }) {
        let path = dir.hasSuffix("/") ? dir + candidate : dir + "/" + candidate
        guard isRegularFile(path) else { continue }
        guard let realDir = realPath(dir), let realFile = realPath(path),
          realFile.hasPrefix(realDir.hasSuffix("/") ? realDir : realDir + "/")
        else {
          escaped = true
          continue
        }
        return path
      }
    }
    if escaped { throw SoundError(file: name, reason: .escapesDirectory) }
    throw SoundError(file: name, reason: .notFound(searched: directories))
  }

  /// The bundled default sound's path, if it is installed.
  public func defaultSound() -> String? { try? resolve(SoundResolver.defaultSoundName) }
}

private func isRegularFile(_ path: String) -> Bool {
  var st = stat()
  return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
}

private func fileExists(_ path: String) -> Bool {
  var st = stat()
  return stat(path, &st) == 0
}

private func realPath(_ path: String) -> String? {
  guard let p = realpath(path, nil) else { return nil }
  defer { free(p) }
  return String(cString: p)
}
