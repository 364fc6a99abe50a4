/// A small argument reader: no package dependencies, so no swift-argument-parser.
/// Each command pulls its options out, then `finish()` rejects leftovers.

/// A usage mistake: exit code 2 and the command's usage text.
struct UsageError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
  init(_ message: String) { self.message = message }
}

struct Arguments {
  private(set) var remaining: [String]

  init(_ arguments: [String]) { remaining = arguments }

  /// Removes `--name` if present.
  mutating func flag(_ names: String...) -> Bool {
    guard let i = remaining.firstIndex(where: { names.contains($0) }) else { return false }
    remaining.remove(at: i)
    return true
  }

  /// Removes `--name VALUE` or `--name=VALUE`; the last one wins.
  mutating func option(_ names: String...) throws(UsageError) -> String? {
    var found: String? = nil
    var i = 0
    while i < remaining.count {
      let arg = remaining[i]
      if names.contains(arg) {
        guard i + 1 < remaining.count else { throw UsageError("\(arg) needs a value") }
        found = remaining[i + 1]
        remaining.removeSubrange(i...(i + 1))
        continue
      }
      if let name = names.first(where: { arg.hasPrefix($0 + "=") }) {
        found = String(arg.dropFirst(name.count + 1))
        remaining.remove(at: i)
        continue
      }
      i += 1
    }
    return found
  }

  /// Removes every `--name VALUE` / `--name=VALUE`; all values in order (repeatable options).
  mutating func options(_ name: String) throws(UsageError) -> [String] {
    var values: [String] = []
    while let i = remaining.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) {
      if remaining[i] == name {
        guard i + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
        values.append(remaining[i + 1])
        remaining.removeSubrange(i...(i + 1))
      } else {
        values.append(String(remaining[i].dropFirst(name.count + 1)))
        remaining.remove(at: i)
      }
    }
    return values
  }

  /// An integer option within `range`.
  mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = try option(name) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "\(name) wants a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
    }
    return value
  }

  /// The next positional argument (anything not starting with `-`, or after `--`).
  mutating func positional(_ what: String) throws(UsageError) -> String {
    guard let value = optionalPositional() else { throw UsageError("missing \(what)") }
    return value
  }

  mutating func optionalPositional() -> String? {
    if let i = remaining.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }),
      remaining.firstIndex(of: "--").map({ $0 > i }) ?? true
    {
      return remaining.remove(at: i)
    }
    if let i = remaining.firstIndex(of: "--"), i + 1 < remaining.count {
      return remaining.remove(at: i + 1)
    }
    return nil
  }

  /// Fails on anything left over.
  func finish() throws(UsageError) {
    let left = remaining.filter { $0 != "--" }
    if let first = left.first {
      throw UsageError(
        first.hasPrefix("-") ? "unknown option '\(first)'" : "unexpected argument '\(first)'")
    }
  }
}
