/// evdev key names (`KEY_SPACE`, `KEY_STOP`, `BTN_0`) and their codes, from
/// the kernel's input-event-codes.h (see EvdevKeyNames+Table.swift).
public enum EvdevKeyNames {
  private static let byName: [String: UInt16] = Dictionary(
    table.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })
  private static let byCode: [UInt16: String] = Dictionary(
    table.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })

  /// The code for a name, case-insensitively; a bare number is taken as a code.
  public static func code(for name: String) -> UInt16? {
    if let n = UInt16(name), n <= 0x2ff { return n }
    return byName[name.uppercased()]
  }

  /// The canonical name of a code (the header's first name for it), or nil.
  public static func name(for code: UInt16) -> String? { byCode[code] }

  /// A name for logs: the key name, or the number for unnamed codes.
  public static func describe(_ code: UInt16) -> String { name(for: code) ?? "key \(code)" }
}
