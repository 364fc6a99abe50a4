// Fuzz target `protocol`: the bytes one control connection sends, through
// what the service and the client do with them: LineFramer, JSONValue.parse,
// ControlRequest(line:) and ControlReply(line:for:). Beyond "no crash":
// - framing does not depend on how the stream is split into reads, and the
//   lines it yields are the stream's lines (a "\r" before "\n" dropped);
// - a parsed JSON value encodes (compact and pretty) to text that parses
//   back to the same value; the compact form has no newline;
// - a parsed request encodes to one line that parses back to the same request;
//   a rejected request has a reply code the protocol documents for it, and
//   its error reply is one line that reads back as the same error;
// - a decoded reply encodes to one line that decodes to the same reply.
import AlarmCore

/// Requests whose replies the client decodes differently.
let replyKinds: [ControlRequest] = [
  .status, .snooze, .stop, .reload, .skip(id: "work"), .unskip(id: "work"), .ring(id: "work"),
  .next(count: 5),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let stream = Array(UnsafeBufferPointer(start: data, count: size))
  checkFraming(stream)
  var framer = LineFramer()
  var frames = framer.push(stream)
  // The last, unterminated line: the client reads it at EOF.
  if !framer.overflowed, framer.pending > 0, let tail = stream.split(separator: 0x0a).last {
    frames.append(.line(Array(tail)))
  }
  for case .line(let line) in frames.prefix(8) {
    checkJSON(line)
    checkRequest(line)
    for kind in replyKinds { checkReply(line, for: kind) }
  }
  return 0
}

/// One-shot framing against framing in uneven reads, and the lines against
/// the stream, with a small limit so `.tooLong` is reached too.
func checkFraming(_ stream: [UInt8]) {
  let maxLine = 1 + Int(stream.first ?? 0) % 48
  var whole = LineFramer(maxLine: maxLine)
  let expected = whole.push(stream)
  var split = LineFramer(maxLine: maxLine)
  var got: [LineFramer.Frame] = []
  let sizes = [1, 3, 2, 7, 0, 5, 11]
  for chunk in chunks(stream[...], sizes: sizes) { got += split.push(chunk) }
  require(got == expected, "framing depends on read sizes: \(got) vs \(expected)")
  require(split.pending == whole.pending, "pending differs: \(split.pending) vs \(whole.pending)")

  var rest = stream[...]
  for (n, frame) in expected.enumerated() {
    switch frame {
    case .tooLong:
      require(n == expected.count - 1, ".tooLong is not the last frame")
      require(whole.overflowed, ".tooLong without overflowed")
    case .line(let line):
      require(line.count <= maxLine, "line of \(line.count) bytes over the limit \(maxLine)")
      guard let nl = rest.firstIndex(of: 0x0a) else { fail("a line without a newline") }
      var raw = rest[..<nl]
      if raw.last == 0x0d { raw = raw.dropLast() }
      require(Array(raw) == line, "line \(n) is not the stream's line")
      rest = rest[(nl + 1)...]
    }
  }
  if !whole.overflowed {
    require(whole.pending == rest.count, "pending \(whole.pending), unread \(rest.count)")
    require(!rest.contains(0x0a), "a newline left unframed")
  }
}

func checkJSON(_ line: [UInt8]) {
  guard let value = try? JSONValue.parse(line) else { return }
  let compact = value.encoded()
  require(!compact.utf8.contains(0x0a), "compact JSON contains a newline: \(compact)")
  for text in [compact, value.encoded(pretty: true)] {
    do {
      let again = try JSONValue.parse(Array(text.utf8))
      require(again == value, "JSON round trip changed the value: \(text)")
    } catch {
      fail("encoded JSON does not parse: \(error)\n\(text)")
    }
  }
}

func checkRequest(_ line: [UInt8]) {
  let request: ControlRequest
  do {
    request = try ControlRequest(line: line)
  } catch {
    require(!error.message.isEmpty, "request error without a message")
    let documented: Set<ControlErrorCode> = [.badJSON, .badRequest, .unknownCommand]
    require(documented.contains(error.code), "request rejected with code \(error.code)")
    let reply = ControlReply.failure(error)
    let encoded = reply.encodedLine()
    checkOneLine(encoded, "error reply")
    do {
      let back = try ControlReply(line: encoded.dropLast(), for: .status)
      require(back == reply, "error reply reads back as \(back), not \(reply)")
    } catch {
      fail("error reply does not decode: \(error)")
    }
    return
  }
  let encoded = request.encodedLine()
  checkOneLine(encoded, "request")
  do {
    let back = try ControlRequest(line: encoded.dropLast())
    require(back == request, "request \(request) reads back as \(back)")
  } catch {
    fail("encoded request \(request) does not parse: \(error)")
  }
}

func checkReply(_ line: [UInt8], for request: ControlRequest) {
  guard let reply = try? ControlReply(line: line, for: request) else { return }
  let encoded = reply.encodedLine()
  checkOneLine(encoded, "reply")
  do {
    let back = try ControlReply(line: encoded.dropLast(), for: request)
    require(back == reply, "reply to \(request) changed in a round trip: \(reply) -> \(back)")
  } catch {
    fail("encoded reply to \(request) does not decode: \(error)")
  }
}

func checkOneLine(_ encoded: [UInt8], _ what: String) {
  require(encoded.last == 0x0a, "\(what) does not end with a newline")
  require(
    encoded.firstIndex(of: 0x0a) == encoded.count - 1,
    "\(what) has a newline inside: \(String(decoding: encoded, as: UTF8.self))")
}
