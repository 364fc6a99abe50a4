import AlarmCore
import AlarmPlatform

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
///
/// A name (or path) may also be a sound folder (`locate`): each ring then picks one of
/// its `playableFiles` (`SoundPicker`).
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

  /// The path of the sound file called `name`, or why there is none (a folder is
  /// `.notAFile` here; `locate` accepts it).
  public func resolve(_ name: String) throws(SoundError) -> String {
    switch try locate(name) {
    case .file(let path): return path
    case .folder(let path): throw SoundError(file: path, reason: .notAFile)
    }
  }

  /// The sound file or sound folder called `name`, or why there is none. Only the bare
  /// name may be a folder (`mornings` or `mornings/`); extensions are tried for files.
  public func locate(_ name: String) throws(SoundError) -> SoundLocation {
    var name = name
    if name.count > 1, name.hasSuffix("/") { name.removeLast() }
    if SoundName.isPath(name) {
      if isDirectory(name) { return .folder(name) }
      guard isRegularFile(name) else {
        throw SoundError(file: name, reason: fileExists(name) ? .notAFile : .missing)
      }
      return .file(name)
    }
    // The config check refuses such names too (`SoundName.problem`); never opened.
    guard SoundName.problem(name) == nil else {
      throw SoundError(file: name, reason: .escapesDirectory)
    }
    var escaped = false
    for dir in directories {
      for candidate in [name] + SoundResolver.extensions.map({ "\(name).\($0)" }) {
        let path = dir.hasSuffix("/") ? dir + candidate : dir + "/" + candidate
        let folder = candidate == name && isDirectory(path)
        guard folder || isRegularFile(path) else { continue }
        guard let realDir = realPath(dir), let realFile = realPath(path),
          realFile.hasPrefix(realDir.hasSuffix("/") ? realDir : realDir + "/")
        else {
          escaped = true
          continue
        }
        return folder ? .folder(path) : .file(path)
      }
    }
    if escaped { throw SoundError(file: name, reason: .escapesDirectory) }
    throw SoundError(file: name, reason: .notFound(searched: directories))
  }

  /// The playable files of a sound folder, as names inside it (any order): regular files
  /// (or links to them inside the folder) with one of `extensions` (any case), not hidden.
  /// Subfolders are not searched. Throws `.emptyFolder` when there is none, and
  /// `.unreadable` / `.missing` when the folder cannot be listed.
  public static func playableFiles(in folder: String) throws(SoundError) -> [String] {
    guard let dir = opendir(folder) else {
      let e = errno
      if e == ENOENT { throw SoundError(file: folder, reason: .missing) }
      throw SoundError(file: folder, reason: .unreadable(SystemError.message(for: e)))
    }
    defer { closedir(dir) }
    let realFolder = realPath(folder).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    var files: [String] = []
    // A folder of thousands of files is not a sound folder; stop listing there.
    while files.count < 10_000, let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      guard !name.hasPrefix("."),
        let dot = name.lastIndex(of: "."),
        extensions.contains(name[name.index(after: dot)...].lowercased())
      else { continue }
      let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
      // A link out of the folder is not one of its files.
      guard isRegularFile(path), let realFolder, let real = realPath(path),
        real.hasPrefix(realFolder)
      else { continue }
      files.append(name)
    }
    if files.isEmpty { throw SoundError(file: folder, reason: .emptyFolder) }
    return files
  }

  /// The bundled default sound's path, if it is installed.
  public func defaultSound() -> String? { try? resolve(SoundResolver.defaultSoundName) }
}

private func isRegularFile(_ path: String) -> Bool {
  var st = stat()
  return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
}

private func isDirectory(_ path: String) -> Bool {
  var st = stat()
  return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
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

/// What a sound name resolves to.
public enum SoundLocation: Equatable, Sendable {
  /// A sound file's path.
  case file(String)
  /// A sound folder's path: each ring picks one of its files.
  case folder(String)
}
