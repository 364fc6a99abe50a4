/// The TZif format (RFC 8536), versions 1 to 4: the files in
/// /usr/share/zoneinfo. Pure: it reads bytes the platform layer loaded.

/// What a TZif file holds, reduced to what local time needs.
struct TZifData {
  /// Transition instants, ascending.
  var times: [Int64]
  /// The local time type each transition switches to.
  var types: [LocalType]
  /// The type in force before the first transition (time type 0).
  var initial: LocalType
  /// The footer's rules for instants after the last transition (v2+).
  var footer: PosixTZ?
}

enum TZifParser {
  static func parse(_ bytes: [UInt8]) throws(TimeZoneError) -> TZifData {
    var reader = ByteReader(bytes: bytes)
    let v1 = try Header(&reader)
    guard v1.version == 0 else {
      // Version 2+: skip the 32-bit block and read the 64-bit one and the footer.
      try reader.skip(v1.dataLength(timeSize: 4), "the version 1 data block")
      let v2 = try Header(&reader)
      var data = try block(&reader, v2, timeSize: 8)
      data.footer = try footer(&reader)
      return data
    }
    return try block(&reader, v1, timeSize: 4)
  }

  struct Header {
    var version: UInt8
    var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

    init(_ r: inout ByteReader) throws(TimeZoneError) {
      guard r.remaining >= 44, Array(r.bytes[r.position..<r.position + 4]) == Array("TZif".utf8)
      else { throw TimeZoneError("not a TZif file (no \"TZif\" magic at byte \(r.position))") }
      r.position += 4
      let v = r.bytes[r.position]
      switch v {
      case 0: version = 0
      case UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4"): version = v - 48
      default: throw TimeZoneError("unsupported TZif version byte \(v)")
      }
      r.position += 16
      isutcnt = Int(r.uint32())
      isstdcnt = Int(r.uint32())
      leapcnt = Int(r.uint32())
      timecnt = Int(r.uint32())
      typecnt = Int(r.uint32())
      charcnt = Int(r.uint32())
      guard typecnt > 0, charcnt > 0 else {
        throw TimeZoneError("TZif file declares no local time types or designations")
      }
      guard isutcnt == 0 || isutcnt == typecnt, isstdcnt == 0 || isstdcnt == typecnt else {
        throw TimeZoneError("TZif file has inconsistent UT/standard indicator counts")
      }
    }

    func dataLength(timeSize: Int) -> Int {
      timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt
        + isutcnt
    }
  }

  private static func block(
    _ r: inout ByteReader, _ h: Header, timeSize: Int
  ) throws(TimeZoneError) -> TZifData {
    guard r.remaining >= h.dataLength(timeSize: timeSize) else {
      throw TimeZoneError("TZif file is truncated (data block needs more bytes)")
    }
    guard h.leapcnt == 0 else {
      throw TimeZoneError(
        "TZif file counts leap seconds (a \"right/\" zone); use the plain zone instead")
    }
    var times: [Int64] = []
    times.reserveCapacity(h.timecnt)
    for _ in 0..<h.timecnt {
      let t = timeSize == 8 ? Int64(bitPattern: r.uint64()) : Int64(Int32(bitPattern: r.uint32()))
      if let last = times.last, t <= last {
        throw TimeZoneError("TZif transition times are not in ascending order")
      }
      times.append(t)
    }
    var indices: [Int] = []
    indices.reserveCapacity(h.timecnt)
    for _ in 0..<h.timecnt {
      let i = Int(r.uint8())
      guard i < h.typecnt else {
        throw TimeZoneError("TZif transition names type \(i) of \(h.typecnt)")
      }
      indices.append(i)
    }
    var raw: [(offset: Int, isDST: Bool, abbr: Int)] = []
    for _ in 0..<h.typecnt {
      let offset = Int(Int32(bitPattern: r.uint32()))
      let isDST = r.uint8()
      let abbr = Int(r.uint8())
      guard offset != Int(Int32.min), (-89999...93599).contains(offset) else {
        throw TimeZoneError("TZif local time type has an impossible offset \(offset) s")
      }
      guard isDST <= 1, abbr < h.charcnt else {
        throw TimeZoneError("TZif local time type is malformed")
      }
      raw.append((offset, isDST == 1, abbr))
    }
    let chars = Array(r.bytes[r.position..<r.position + h.charcnt])
    r.position += h.charcnt
    r.position += h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt
    let types = raw.map { t in
      let end = chars[t.abbr...].firstIndex(of: 0) ?? chars.count
      return LocalType(
        offset: t.offset, isDST: t.isDST,
        abbreviation: String(decoding: chars[t.abbr..<end], as: UTF8.self))
    }
    return TZifData(
      times: times, types: indices.map { types[$0] }, initial: types[0], footer: nil)
  }

  private static func footer(_ r: inout ByteReader) throws(TimeZoneError) -> PosixTZ? {
    guard r.remaining > 0 else { return nil }  // tolerated: some writers omit it
    guard r.uint8() == 0x0A else {
      throw TimeZoneError("TZif footer does not start with a newline")
    }
    let rest = r.bytes[r.position...]
    guard let end = rest.firstIndex(of: 0x0A) else {
      throw TimeZoneError("TZif footer does not end with a newline")
    }
    let text = String(decoding: rest[..<end], as: UTF8.self)
    if text.isEmpty { return nil }
    do {
      return try PosixTZParser.parse(text)
    } catch {
      throw TimeZoneError("TZif footer: \(error.message)")
    }
  }
}

/// Big-endian reads; callers check `remaining` first.
struct ByteReader {
  let bytes: [UInt8]
  var position = 0

  var remaining: Int { bytes.count - position }

  mutating func skip(_ n: Int, _ what: String) throws(TimeZoneError) {
    guard remaining >= n else { throw TimeZoneError("TZif file is truncated in \(what)") }
    position += n
  }

  mutating func uint8() -> UInt8 {
    defer { position += 1 }
    return bytes[position]
  }

  mutating func uint32() -> UInt32 {
    var v: UInt32 = 0
    for _ in 0..<4 { v = v << 8 | UInt32(uint8()) }
    return v
  }

  mutating func uint64() -> UInt64 {
    var v: UInt64 = 0
    for _ in 0..<8 { v = v << 8 | UInt64(uint8()) }
    return v
  }
}
