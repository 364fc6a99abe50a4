import AlarmCore
import Glibc

/// Finds and reads time zones from the system's zone database.
public enum ZoneLoader {
  /// The standard place of the zone database on Debian and most Linux systems.
  public static let defaultRoot = "/usr/share/zoneinfo"

  /// Loads the zone `identifier` (e.g. `Europe/Berlin`) from `root`.
  /// Rejects absolute paths, `..` components and files that are not TZif.
  public static func load(identifier: String, root: String = defaultRoot) throws -> TimeZoneRules {
    try checkIdentifier(identifier)
    return try loadFile(path: root + "/" + identifier, identifier: identifier)
  }

  /// The system's zone: `TZ` from `environment` first (`:Area/City`,
  /// `Area/City`, `:/path/to/file`, or a POSIX TZ string such as
  /// `CET-1CEST,M3.5.0,M10.5.0/3`; an empty `TZ` means UTC; one that names
  /// nothing readable also means UTC, as in glibc), else `/etc/localtime`
  /// (its symlink target names the zone; a plain file is called
  /// `localtime`), else UTC. A configured `timezone` setting takes precedence
  /// over all of this: callers use `load(identifier:)` for it.
  public static func system(
    environment: [String: String], localtime: String = "/etc/localtime",
    root: String = defaultRoot
  ) -> TimeZoneRules {
    if let tz = environment["TZ"] { return fromTZ(tz, root: root) }
    if let zone = try? loadFile(path: localtime, identifier: identifier(ofLink: localtime)) {
      return zone
    }
    return .utc
  }

  // MARK: - Internals

  static func fromTZ(_ value: String, root: String) -> TimeZoneRules {
    if value.isEmpty { return .utc }
    let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
    if name.isEmpty { return .utc }
    if name.hasPrefix("/") {
      let prefix = root.hasSuffix("/") ? root : root + "/"
      let id = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
      if let zone = try? loadFile(path: name, identifier: id) { return zone }
    } else if let zone = try? load(identifier: name, root: root) {
      return zone
    }
    if !value.hasPrefix(":"), let zone = try? TimeZoneRules(identifier: value, posix: value) {
      return zone
    }
    return .utc
  }

  static func checkIdentifier(_ identifier: String) throws(TimeZoneError) {
    guard !identifier.isEmpty else { throw TimeZoneError("empty time zone name") }
    guard !identifier.hasPrefix("/") else {
      throw TimeZoneError(
        "time zone \"\(identifier)\" is an absolute path; give a name like Europe/Berlin")
    }
    let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
    guard !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
      throw TimeZoneError(
        "time zone \"\(identifier)\" has an empty, \".\" or \"..\" path component")
    }
    guard identifier.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
      throw TimeZoneError("time zone \"\(identifier)\" contains spaces or non-ASCII characters")
    }
  }

  /// `Europe/Berlin` for a link to `.../zoneinfo/Europe/Berlin`, else `localtime`.
  static func identifier(ofLink path: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return "localtime" }
    let bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
    let marker = Array("zoneinfo/".utf8)
    guard bytes.count > marker.count,
      let start = stride(from: bytes.count - marker.count, through: 0, by: -1).first(where: {
        Array(bytes[$0..<$0 + marker.count]) == marker
      })
    else { return "localtime" }
    let id = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
    // "posix/Europe/Berlin" and "Europe/Berlin" are the same zone.
    return id.hasPrefix("posix/") ? String(id.dropFirst(6)) : id
  }

  static func loadFile(path: String, identifier: String) throws -> TimeZoneRules {
    let bytes = try readZoneFile(path, identifier: identifier)
    return try TimeZoneRules(identifier: identifier, tzif: bytes)
  }

  /// Reads a whole regular file of at most 1 MiB (zone files are a few KiB).
  private static func readZoneFile(_ path: String, identifier: String) throws(TimeZoneError)
    -> [UInt8]
  {
    let bytes: [UInt8]
    do throws(SystemError) {
      bytes = try FileSystem.readFile(path, limit: 1 << 20)
    } catch {
      switch error.errno {
      case ENOENT: throw TimeZoneError("unknown time zone \"\(identifier)\" (no file \(path))")
      case EFBIG:
        throw TimeZoneError("time zone \"\(identifier)\": \(path) is too large for a zone file")
      case EISDIR, EINVAL:
        throw TimeZoneError("time zone \"\(identifier)\": \(path) is not a regular file")
      default:
        let reason = SystemError.message(for: error.errno)
        throw TimeZoneError("cannot read time zone \"\(identifier)\": \(error.call): \(reason)")
      }
    }
    guard bytes.starts(with: Array("TZif".utf8)) else {
      throw TimeZoneError("time zone \"\(identifier)\": \(path) is not a TZif zone file")
    }
    return bytes
  }
}
