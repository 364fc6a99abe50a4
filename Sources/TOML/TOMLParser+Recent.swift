/// Short strings the parser made lately, to hand out again: a config repeats its keys and
/// many of its values thousands of times (`id`, `time`, `weekdays`, `mon`), and making a
/// `String` validates its bytes again each time (about 160 instructions, where a hit here
/// takes about 40; a tenth of parsing a large config).
struct RecentStrings {
  /// Bytes of one string of up to 8 bytes, packed (first byte highest), and its length:
  /// together they are the bytes exactly, so a hit is always the same string.
  private struct Slot {
    var packed: UInt64 = 0
    var count = 0
    var string = ""
  }

  /// Direct-mapped by a hash of the packed bytes; allocated on first use.
  private var slots: [Slot] = []
  private static let slotBits = 9

  /// The string of `bytes[range]`, decoded as UTF-8.
  mutating func string(_ bytes: [UInt8], _ range: Range<Int>) -> String {
    let count = range.count
    guard count > 0, count <= 8 else { return String(decoding: bytes[range], as: UTF8.self) }
    var packed: UInt64 = 0
    for j in range { packed = packed << 8 | UInt64(bytes[j]) }
    let slot = Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.slotBits))
    if slots.isEmpty { slots = Array(repeating: Slot(), count: 1 << Self.slotBits) }
    if slots[slot].packed == packed && slots[slot].count == count { return slots[slot].string }
    let string = String(decoding: bytes[range], as: UTF8.self)
    slots[slot] = Slot(packed: packed, count: count, string: string)
    return string
  }
}
