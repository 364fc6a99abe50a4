import AlarmCore
import AlarmFiles
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The sound names the edit form offers: files with a playable extension in the sound
/// directories (the config's `sound_dirs`, then the default ones), without extension.
enum SoundCatalog {
  static func names(_ config: Config) -> [String] {
    let dirs =
      config.settings.soundDirs
      + SoundResolver.defaultDirectories(executablePath: executablePath())
    var names: [String] = []
    for dir in dirs {
      guard let d = opendir(dir) else { continue }
      defer { closedir(d) }
      while let entry = readdir(d) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
          SoundResolver.extensions.contains(name[name.index(after: dot)...].lowercased())
        else { continue }
        let base = String(name[..<dot])
        if !names.contains(base) { names.append(base) }
        if names.count >= 500 { return names.sorted() }
      }
    }
    return names.sorted()
  }
}
