/// An `application/x-www-form-urlencoded` body (or query): name/value pairs in order.
public struct FormData: Sendable {
  public var fields: [(name: String, value: String)]
  /// The files of a multipart form, by field name (none in an url-encoded one).
  public var files: [String: MultipartForm.File] = [:]

  /// These fields and files (a multipart form's parts).
  public init(fields: [(name: String, value: String)], files: [String: MultipartForm.File] = [:]) {
    self.fields = fields
    self.files = files
  }

  /// Decodes `bytes`; nil when it is not valid form encoding (a bad `%` escape, not UTF-8).
  public init?(_ bytes: some Collection<UInt8>) {
    fields = []
    for part in Array(bytes).split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let pair = part.split(
        separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = Self.decode(pair[0]) else { return nil }
      let value = pair.count > 1 ? Self.decode(pair[1]) : ""
      guard let value else { return nil }
      fields.append((name, value))
    }
  }

  /// The first value of `name`.
  public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

  /// Every value of `name`, in order (repeated fields such as `days`).
  public func all(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

  private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    while i < bytes.endIndex {
      let b = bytes[i]
      if b == UInt8(ascii: "+") {
        out.append(UInt8(ascii: " "))
      } else if b == UInt8(ascii: "%") {
        guard i + 2 < bytes.endIndex,
          let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2])
        else { return nil }
        out.append(hi << 4 | lo)
        i += 2
      } else {
        out.append(b)
      }
      i += 1
    }
    return String(validating: out, as: UTF8.self)
  }

  private static func hex(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
