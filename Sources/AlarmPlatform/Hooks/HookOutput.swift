/// A hook's stdout and stderr, split into lines for the log, with a byte budget so a
/// chatty or runaway hook cannot flood the journal or the service's memory.
struct HookOutput {
  /// Bytes of output logged at most; the rest is counted and dropped.
  let limit: Int
  private var pending: [UInt8] = []
  private var logged = 0
  /// Bytes dropped once the budget was spent.
  private(set) var dropped = 0

  init(limit: Int) { self.limit = max(0, limit) }

  /// Takes a chunk as read from the pipe; returns the complete lines it finished (without
  /// the newline or a trailing carriage return).
  mutating func append(_ bytes: some Collection<UInt8>) -> [String] {
    var lines: [String] = []
    // Over budget (a flooding hook): counted at once, not byte by byte.
    if logged + pending.count >= limit {
      dropped += bytes.count
      return lines
    }
    for byte in bytes {
      if logged + pending.count >= limit {
        dropped += 1
        continue
      }
      if byte == UInt8(ascii: "\n") {
        lines.append(takeLine())
      } else {
        pending.append(byte)
      }
    }
    // A line that fills the rest of the budget is logged now, cut, rather than held.
    if !pending.isEmpty && logged + pending.count >= limit { lines.append(takeLine()) }
    return lines
  }

  /// At end of output: the last line if it had no newline.
  mutating func finish() -> String? {
    pending.isEmpty ? nil : takeLine()
  }

  private mutating func takeLine() -> String {
    logged += pending.count + 1
    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
    defer { pending.removeAll(keepingCapacity: true) }
    return String(decoding: pending, as: UTF8.self)
  }
}
