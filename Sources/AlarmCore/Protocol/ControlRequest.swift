/// Requests on the control socket: one JSON object per line (docs/protocol.md).

public enum ControlRequest: Hashable, Sendable {
  case status
  case snooze
  case stop
  case reload
  case skip(id: String)
  case unskip(id: String)
  /// Ring an alarm now, for testing.
  case ring(id: String)
  /// The next `count` firings.
  case next(count: Int)

  public static let defaultNextCount = 5
  /// How many firings a `next` request (and `GET /api/next`) may ask for: replies stay
  /// small. The one declaration of that limit.
  public static let nextCountRange = 1...100
  /// How many `alarmclock next` lists when it works them out itself from the files (a
  /// year of a calendar's days off, say). The one declaration of that limit.
  public static let offlineNextCountRange = 1...10_000
  /// Every command name, as sent in `cmd`.
  public static let commands = [
    "status", "snooze", "stop", "skip", "unskip", "reload", "ring", "next",
  ]

  /// The `cmd` value.
  public var command: String {
    switch self {
    case .status: return "status"
    case .snooze: return "snooze"
    case .stop: return "stop"
    case .reload: return "reload"
    case .skip: return "skip"
    case .unskip: return "unskip"
    case .ring: return "ring"
    case .next: return "next"
    }
  }

  /// Decodes one request line (without its "\n"). Errors carry the reply's
  /// code: `bad-json`, `bad-request` or `unknown-command`.
  public init(line: some Collection<UInt8>) throws(ControlError) {
    let value: JSONValue
    do {
      value = try JSONValue.parse(line)
    } catch {
      throw ControlError(.badJSON, line.isEmpty ? "empty line" : error.description)
    }
    guard case .object(let members) = value else {
      throw ControlError(.badRequest, "a request must be a JSON object, not \(value.typeName)")
    }
    guard let cmdValue = members["cmd"] else {
      throw ControlError(
        .badRequest, "missing \"cmd\" (one of: \(Self.commands.joined(separator: ", ")))")
    }
    guard case .string(let cmd) = cmdValue else {
      throw ControlError(.badRequest, "\"cmd\" must be a string, not \(cmdValue.typeName)")
    }
    let fields: Set<String>
    switch cmd {
    case "status", "snooze", "stop", "reload": fields = ["cmd"]
    case "skip", "unskip", "ring": fields = ["cmd", "id"]
    case "next": fields = ["cmd", "count"]
    default:
      var message = "unknown command \(singleQuoted(cmd))"
      if let guess = closestMatch(to: cmd, in: Self.commands) {
        message += " (did you mean '\(guess)'?)"
      }
      throw ControlError(.unknownCommand, message)
    }
    if let extra = members.keys.sorted().first(where: { !fields.contains($0) }) {
      throw ControlError(.badRequest, "unknown field \(singleQuoted(extra)) for '\(cmd)'")
    }
    switch cmd {
    case "status": self = .status
    case "snooze": self = .snooze
    case "stop": self = .stop
    case "reload": self = .reload
    case "next":
      guard let c = members["count"] else {
        self = .next(count: Self.defaultNextCount)
        return
      }
      let range = Self.nextCountRange
      guard case .int(let n) = c, n >= range.lowerBound, n <= range.upperBound else {
        throw ControlError(
          .badRequest,
          "\"count\" must be an integer from \(range.lowerBound) to \(range.upperBound)")
      }
      self = .next(count: Int(n))
    default:
      guard case .string(let id)? = members["id"] else {
        let what = members["id"].map { ", not \($0.typeName)" } ?? ""
        throw ControlError(.badRequest, "'\(cmd)' needs \"id\": an alarm id string\(what)")
      }
      guard !id.isEmpty, id.utf8.count <= 256,
        !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else {
        throw ControlError(.badRequest, "\"id\" must be 1 to 256 bytes without control characters")
      }
      switch cmd {
      case "skip": self = .skip(id: id)
      case "unskip": self = .unskip(id: id)
      default: self = .ring(id: id)
      }
    }
  }

  /// The request as one line, "\n" included.
  public func encodedLine() -> [UInt8] {
    var m: [String: JSONValue] = ["cmd": .string(command)]
    switch self {
    case .skip(let id), .unskip(let id), .ring(let id): m["id"] = .string(id)
    case .next(let count): m["count"] = .int(Int64(count))
    default: break
    }
    return Array((JSONValue.object(m).encoded() + "\n").utf8)
  }
}

/// Splits a byte stream into lines of at most `maxLine` bytes. A longer line
/// yields `.tooLong` as soon as the limit is passed (memory stays bounded),
/// and everything after it is ignored: the service replies `line-too-long`
/// and closes the connection.
public struct LineFramer: Sendable {
  public static let defaultMaxLine = 64 * 1024

  public enum Frame: Hashable, Sendable {
    /// One line without its "\n" (and without a "\r" before it).
    case line([UInt8])
    case tooLong
  }

  public let maxLine: Int
  private var buffer: [UInt8] = []
  /// Set after `.tooLong`: the connection is done.
  public private(set) var overflowed = false

  public init(maxLine: Int = LineFramer.defaultMaxLine) { self.maxLine = maxLine }

  /// Feeds received bytes; returns the frames they complete.
  public mutating func push(_ bytes: some Sequence<UInt8>) -> [Frame] {
    guard !overflowed else { return [] }
    var frames: [Frame] = []
    for b in bytes {
      if b == 0x0a {
        if buffer.last == 0x0d { buffer.removeLast() }
        frames.append(.line(buffer))
        buffer.removeAll(keepingCapacity: true)
      } else {
        buffer.append(b)
        // One byte of slack for a "\r" before the "\n".
        if buffer.count > maxLine && !(b == 0x0d && buffer.count == maxLine + 1) {
          overflowed = true
          buffer = []
          frames.append(.tooLong)
          return frames
        }
      }
    }
    return frames
  }

  /// Bytes of an unfinished line held so far.
  public var pending: Int { buffer.count }
}
