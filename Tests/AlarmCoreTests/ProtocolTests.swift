import AlarmCore
import Testing

@Suite struct ProtocolTests {
  func request(_ text: String) throws(ControlError) -> ControlRequest {
    try ControlRequest(line: Array(text.utf8))
  }

  func error(_ text: String) -> ControlError? {
    do {
      _ = try request(text)
      return nil
    } catch { return error }
  }

  @Test func decodesEveryRequest() throws {
    #expect(try request(#"{"cmd":"status"}"#) == .status)
    #expect(try request(#" { "cmd" : "snooze" } "#) == .snooze)
    #expect(try request(#"{"cmd":"stop"}"#) == .stop)
    #expect(try request(#"{"cmd":"reload"}"#) == .reload)
    #expect(try request(#"{"cmd":"skip","id":"work"}"#) == .skip(id: "work"))
    #expect(try request(#"{"id":"work","cmd":"unskip"}"#) == .unskip(id: "work"))
    #expect(try request(#"{"cmd":"ring","id":"\u65e9\u8d77"}"#) == .ring(id: "早起"))
    #expect(try request(#"{"cmd":"next"}"#) == .next(count: 5))
    #expect(try request(#"{"cmd":"next","count":100}"#) == .next(count: 100))
  }

  @Test func requestsRoundTrip() throws {
    let all: [ControlRequest] = [
      .status, .snooze, .stop, .reload, .skip(id: "work"), .unskip(id: "a\"b"),
      .ring(id: "早起"), .next(count: 7),
    ]
    for r in all {
      let line = r.encodedLine()
      #expect(line.last == 0x0a && line.dropLast().allSatisfy { $0 != 0x0a })
      #expect(try ControlRequest(line: line.dropLast()) == r)
    }
    #expect(
      String(decoding: ControlRequest.next(count: 3).encodedLine(), as: UTF8.self)
        == "{\"cmd\":\"next\",\"count\":3}\n")
  }

  @Test func everyRequestErrorCode() {
    #expect(error("")?.code == .badJSON)
    #expect(error("")?.message == "empty line")
    #expect(error("{")?.code == .badJSON)
    #expect(
      error(#"{"cmd":"status"} x"#)?.message
        == "invalid JSON at byte 17: unexpected text after the value")
    #expect(error(String(repeating: "[", count: 1000))?.code == .badJSON)
    #expect(
      error("[1,2]") == ControlError(.badRequest, "a request must be a JSON object, not an array"))
    #expect(error("{}")?.code == .badRequest)
    #expect(
      error(#"{"cmd":5}"#) == ControlError(.badRequest, "\"cmd\" must be a string, not a number"))
    #expect(
      error(#"{"cmd":"snoze"}"#)
        == ControlError(.unknownCommand, "unknown command 'snoze' (did you mean 'snooze'?)"))
    #expect(
      error(#"{"cmd":"explode"}"#) == ControlError(.unknownCommand, "unknown command 'explode'"))
    #expect(
      error(#"{"cmd":"stop","force":true}"#)
        == ControlError(.badRequest, "unknown field 'force' for 'stop'"))
    #expect(
      error(#"{"cmd":"skip"}"#)
        == ControlError(.badRequest, "'skip' needs \"id\": an alarm id string"))
    #expect(
      error(#"{"cmd":"ring","id":7}"#)?.message
        == "'ring' needs \"id\": an alarm id string, not a number")
    #expect(error(#"{"cmd":"ring","id":""}"#)?.code == .badRequest)
    #expect(error(#"{"cmd":"ring","id":"a\u0000"}"#)?.code == .badRequest)
    #expect(
      error(#"{"cmd":"next","count":0}"#)
        == ControlError(.badRequest, "\"count\" must be an integer from 1 to 100"))
    #expect(error(#"{"cmd":"next","count":1e3}"#)?.code == .badRequest)
    #expect(error(#"{"cmd":"next","count":99999999999999999999999}"#)?.code == .badRequest)
    #expect(throws: ControlError.self) {
      try ControlRequest(line: [0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])
    }
  }

  @Test func framerSplitsLinesAndCapsLength() {
    var f = LineFramer(maxLine: 8)
    #expect(f.push(Array("ab\ncd".utf8)) == [.line(Array("ab".utf8))])
    #expect(f.pending == 2)
    #expect(f.push(Array("e\r\n\n".utf8)) == [.line(Array("cde".utf8)), .line([])])
    #expect(f.push(Array("12345678\r\n".utf8)) == [.line(Array("12345678".utf8))])
    #expect(f.push(Array("12345678".utf8)) == [])
    #expect(f.push(Array("9\n{}\n".utf8)) == [.tooLong])
    #expect(f.overflowed && f.push(Array("{}\n".utf8)).isEmpty)
    var big = LineFramer()
    let frames = big.push(Array(repeating: UInt8(ascii: "x"), count: 200_000))
    #expect(frames == [.tooLong] && big.pending == 0)
    var exact = LineFramer()
    #expect(exact.push(Array(repeating: UInt8(ascii: "x"), count: 65_536) + [0x0a]).count == 1)
  }

  static let status = StatusReport(
    version: "0.1.0",
    config: ConfigStatus(
      path: "/etc/alarmclock/alarms.toml", ok: false,
      errors: ["/etc/alarmclock/alarms.toml:3:8: expected a time such as 06:45"]),
    clockSynchronized: nil,
    session: SessionStatus(
      id: "work", label: "Work", state: .snoozed, until: "2026-12-03T06:54:00+01:00", snoozes: 1),
    next: [UpcomingFiring(id: "gym", label: nil, at: "2026-12-03T07:30:00+01:00")],
    history: [
      HistoryItem(
        kind: .missed, id: "nap", label: "Nap\nline", firing: "2026-12-02T14:30:00+01:00",
        at: "2026-12-02T16:00:00+01:00", more: 2)
    ],
    inputs: [InputStatus(name: "gpio", available: false, detail: "/dev/gpiochip0: no such file")])

  @Test func repliesRoundTripOnOneLine() throws {
    let cases: [(ControlRequest, ControlReply)] =
      [
        (.status, .ok(.status(Self.status))),
        (
          .status,
          .ok(
            .status(
              StatusReport(
                version: "0.1.0", config: ConfigStatus(path: "a.toml", ok: true),
                clockSynchronized: true,
                session: nil, next: [], history: [], inputs: [])))
        ),
        (.next(count: 2), .ok(.next(Self.status.next))),
        (
          .skip(id: "work"),
          .ok(.skip(SkipInfo(id: "work", date: "2026-12-03", at: "2026-12-03T06:45:00+01:00")))
        ),
        (.unskip(id: "work"), .ok(.skip(SkipInfo(id: "work", date: nil, at: nil)))),
        (.snooze, .ok(.snooze(until: "2026-12-03T06:54:00+01:00"))),
        (.stop, .ok(.empty)), (.ring(id: "x"), .ok(.empty)), (.reload, .ok(.empty)),
        (
          .reload,
          .failure(
            ControlError(
              .configInvalid, "the config has 1 error; the last good config stays in force",
              details: ["a.toml:1:1: bad"]))
        ),
      ]
      + ControlErrorCode.allCases.map {
        (.stop, .failure(ControlError($0, "message for \($0.rawValue)")))
      }
    for (req, reply) in cases {
      let line = reply.encodedLine()
      #expect(line.last == 0x0a && !line.dropLast().contains(0x0a))
      #expect(try ControlReply(line: line.dropLast(), for: req) == reply)
    }
  }

  @Test func replyWireFormat() {
    let text = String(
      decoding: ControlReply.failure(
        ControlError(.unknownAlarm, "no alarm with id 'wrok' (did you mean 'work'?)")
      ).encodedLine(), as: UTF8.self)
    #expect(
      text
        == #"{"error":{"code":"unknown-alarm","#
        + #""message":"no alarm with id 'wrok' (did you mean 'work'?)"},"ok":false}"# + "\n")
    #expect(
      String(decoding: ControlReply.ok(.empty).encodedLine(), as: UTF8.self) == "{\"ok\":true}\n")
    #expect(
      String(decoding: ControlReply.lineTooLong.encodedLine(), as: UTF8.self).contains(
        "\"code\":\"line-too-long\""))
    let status = String(
      decoding: ControlReply.ok(.status(Self.status)).encodedLine(), as: UTF8.self)
    #expect(
      status.contains(
        #""clock":{"last_jump_s":null,"plausible":null,"synchronized":null,"synchronized_at":null}"#
      ))
    #expect(status.contains(#""label":"Nap\nline""#))
  }

  @Test func repliesToleratesNewerFieldsAndRejectsGarbage() throws {
    let newer = #"{"ok":true,"until":"x","extra":[1,2]}"#
    #expect(try ControlReply(line: Array(newer.utf8), for: .snooze) == .ok(.snooze(until: "x")))
    let unknownCode = #"{"ok":false,"error":{"code":"brand-new","message":"m"}}"#
    #expect(
      try ControlReply(line: Array(unknownCode.utf8), for: .stop)
        == .failure(ControlError(.internal, "m")))
    #expect(throws: ControlError.self) { try ControlReply(line: Array("nope".utf8), for: .status) }
    #expect(throws: ControlError.self) {
      try ControlReply(line: Array(#"{"ok":true}"#.utf8), for: .status)
    }
    #expect(throws: ControlError.self) {
      try ControlReply(line: Array(#"{"ok":"yes"}"#.utf8), for: .stop)
    }
  }

  @Test func didYouMean() {
    #expect(closestMatch(to: "wrok", in: ["work", "gym"]) == "work")
    #expect(closestMatch(to: "xyz", in: ["work", "gym"]) == nil)
    #expect(closestMatch(to: "gim", in: ["work", "gym"]) == "gym")
    #expect(closestMatch(to: "work", in: ["work"]) == nil)
  }
}
