#if canImport(Glibc)
  import Glibc
#endif

/// A snapshot of environment variables, passed explicitly so tests need not touch the
/// process environment (setenv is not thread-safe).
public struct Environment: Sendable, Equatable {
  public var values: [String: String]

  public init(_ values: [String: String] = [:]) { self.values = values }

  /// The process environment at the time of the call.
  public static func current() -> Environment {
    var values: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let pair = String(cString: pointer)
      if let eq = pair.firstIndex(of: "=") {
        values[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
      }
      entry += 1
    }
    return Environment(values)
  }

  public subscript(name: String) -> String? {
    get { values[name] }
    set { values[name] = newValue }
  }
}
