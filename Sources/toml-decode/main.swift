// toml-decode: the decoder side of the toml-test suite.
//
// Reads TOML on stdin. Valid: exit 0, the tagged JSON form on stdout
// (leaves as {"type": ..., "value": ...}). Invalid: exit 1, `line:col:
// message` on stderr.
import Glibc
import TOML

/// All of stdin, read with read(2) (retrying EINTR).
func readStandardInput() -> [UInt8]? {
  var data: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if n == 0 { return data }
    if n < 0 {
      if errno == EINTR { continue }
      return nil
    }
    data.append(contentsOf: chunk[0..<n])
  }
}

/// Writes all of `text` to a file descriptor.
func write(_ text: String, to fd: Int32) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeMutableBytes { buffer in
      Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
    }
    if n < 0 {
      if errno == EINTR { continue }
      return
    }
    offset += n
  }
  bytes.removeAll()
}

/// `s` as a JSON string literal.
func jsonString(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case "\u{08}": out += "\\b"
    case "\u{0C}": out += "\\f"
    default:
      if scalar.value < 0x20 || scalar.value == 0x7F {
        let digits = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

func leaf(_ type: String, _ value: String) -> String {
  "{\"type\":\"\(type)\",\"value\":\(jsonString(value))}"
}

/// The tagged JSON form of a value.
func json(_ value: TOMLValue, into out: inout String) {
  switch value {
  case .string(let s): out += leaf("string", s)
  case .integer(let n): out += leaf("integer", String(n))
  case .float(let d): out += leaf("float", TOMLFormat.float(d))
  case .boolean(let b): out += leaf("bool", b ? "true" : "false")
  case .offsetDateTime(let dt): out += leaf("datetime", TOMLFormat.offsetDateTime(dt))
  case .localDateTime(let dt): out += leaf("datetime-local", TOMLFormat.dateTime(dt))
  case .localDate(let d): out += leaf("date-local", TOMLFormat.date(d))
  case .localTime(let t): out += leaf("time-local", TOMLFormat.time(t))
  case .array(let a):
    out += "["
    for (k, element) in a.elements.enumerated() {
      if k > 0 { out += "," }
      json(element.value, into: &out)
    }
    out += "]"
  case .table(let t):
    out += "{"
    for (k, entry) in t.entries.enumerated() {
      if k > 0 { out += "," }
      out += jsonString(entry.key) + ":"
      json(entry.node.value, into: &out)
    }
    out += "}"
  }
}

guard let input = readStandardInput() else {
  write("toml-decode: cannot read standard input: \(String(cString: strerror(errno)))\n", to: 2)
  exit(2)
}
do {
  let document = try TOMLParser.parse(utf8: input)
  var out = ""
  json(.table(document.root), into: &out)
  write(out + "\n", to: 1)
  exit(0)
} catch {
  write("\(error)\n", to: 2)
  exit(1)
}
