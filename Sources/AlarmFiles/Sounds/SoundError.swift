/// Why a sound file cannot be played. Always names the file.
public struct SoundError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, independent of the file.
  public enum Reason: Equatable, Sendable {
    /// No file at that path.
    case missing
    /// The file exists but may not be read (permissions).
    case unreadable(String)
    /// A directory or other non-regular file.
    case notAFile
    /// The file has no bytes at all.
    case zeroLength
    /// The content is not audio in any format the decoder knows.
    case notAudio(String)
    /// Decoding stopped before the end the header promised, or on damaged data.
    case truncated(String)
    /// The sound name cannot be resolved in the sound directories.
    case notFound(searched: [String])
    /// The name tries to leave its sound directory (`..`, a symlink out).
    case escapesDirectory
    /// A sound folder with no playable file in it.
    case emptyFolder
  }

  /// The file (or the sound name, for resolution errors).
  public var file: String
  public var reason: Reason

  public init(file: String, reason: Reason) {
    self.file = file
    self.reason = reason
  }

  public var description: String {
    let list = { (dirs: [String]) in
      dirs.isEmpty ? "(no sound directories)" : dirs.joined(separator: ", ")
    }
    return switch reason {
    case .missing: "\(file): no such file"
    case .unreadable(let why): "\(file): cannot be read: \(why)"
    case .notAFile: "\(file): not a regular file"
    case .zeroLength: "\(file): empty file (zero length)"
    case .notAudio(let why): "\(file): not a sound file the decoder knows (\(why))"
    case .truncated(let why): "\(file): damaged or truncated (\(why))"
    case .notFound(let dirs): "\(file): no such sound in \(list(dirs))"
    case .escapesDirectory: "\(file): a sound name may not leave its sound directory"
    case .emptyFolder:
      "\(file): sound folder has no playable file ("
        + SoundResolver.extensions.map { "." + $0 }.joined(separator: " ") + ")"
    }
  }
}
