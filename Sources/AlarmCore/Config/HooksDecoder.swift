import TOML

/// `[hooks]`: one command per event, the pre-ring lead time and the timeout.
enum HooksDecoder {
  static let keys = HookEvent.allCases.map(\.rawValue) + ["shell", "pre_ring_lead", "timeout"]

  /// The longest hook command, its words' UTF-8 bytes with one separator each.
  static let maxCommandBytes = 4096

  static func decode(_ r: TableReader) -> HooksConfig {
    var hooks = HooksConfig()
    let shell = r.bool("shell") ?? false
    for event in HookEvent.allCases {
      guard let entry = r.entry(event.rawValue) else { continue }
      guard let argv = command(entry, shell: shell, r) else { continue }
      // Counted over the words as run (the command is logged and shown in errors).
      let bytes = argv.reduce(0) { $0 + $1.utf8.count + 1 }
      if bytes > maxCommandBytes {
        r.state.error(
          entry.node.range.start,
          "'\(event.rawValue)' is too long: \(bytes) bytes, at most \(maxCommandBytes)")
      } else {
        hooks.commands[event] = argv
      }
    }
    if let lead = r.duration("pre_ring_lead", in: .seconds(1)...Duration.seconds(12 * 3600)) {
      hooks.preRingLead = lead
      if r.table.entry("pre_ring") == nil, let entry = r.table.entry("pre_ring_lead") {
        r.state.warning(
          entry.node.range.start, "'pre_ring_lead' has no effect without a 'pre_ring' command")
      }
    }
    if let timeout = r.duration("timeout", in: .seconds(1)...Duration.seconds(3600)) {
      hooks.timeout = timeout
    }
    return hooks
  }

  /// A list of strings is the argv as written; a string is split into words
  /// (or, with `shell = true`, run as `/bin/sh -c STRING`).
  private static func command(_ entry: TOMLEntry, shell: Bool, _ r: TableReader) -> [String]? {
    let key = entry.key
    switch entry.node.value {
    case .string(let text):
      if shell {
        guard !text.allSatisfy(\.isWhitespace) else {
          r.state.error(entry.node.range.start, "'\(key)' must not be empty")
          return nil
        }
        return ["/bin/sh", "-c", text]
      }
      switch CommandWords.split(text) {
      case .success(let words) where words.isEmpty:
        r.state.error(entry.node.range.start, "'\(key)' must not be empty")
      case .success(let words):
        return words
      case .failure(let problem):
        r.state.error(entry.node.range.start, "'\(key)' \(problem.message)")
      }
      return nil
    case .array(let array):
      var argv: [String] = []
      for element in array.elements {
        guard case .string(let word) = element.value else {
          r.state.error(
            element.range.start,
            "'\(key)' entries must be strings, not \(element.value.kindDescription)")
          return nil
        }
        argv.append(word)
      }
      guard let program = argv.first, !program.isEmpty else {
        r.state.error(entry.node.range.start, "'\(key)' must name a program to run")
        return nil
      }
      return argv
    default:
      r.mismatch(entry, "a command: a string, or a list like [\"/usr/bin/lamp\", \"on\"]")
      return nil
    }
  }
}

/// Splits a command line into words the way a shell would for simple cases:
/// blanks separate words; `'...'` keeps everything literally; `"..."` keeps blanks
/// and honours `\"`, `\\`, `\$` and `` \` ``; outside quotes `\` escapes the next
/// character. No expansion of any kind (no `$VAR`, `~`, globs or pipes).
public enum CommandWords {
  public struct Problem: Error, Hashable, Sendable {
    public var message: String
  }

  public static func split(_ text: String) -> Result<[String], Problem> {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character? = nil
    var escaped = false
    for ch in text {
      if escaped {
        if quote == "\"" && !"\"\\$`".contains(ch) { word.append("\\") }
        word.append(ch)
        escaped = false
        continue
      }
      switch (quote, ch) {
      case ("'", "'"), ("\"", "\""): quote = nil
      case ("'", _): word.append(ch)
      case ("\"", "\\"), (nil, "\\"):
        escaped = true
        inWord = true
      case ("\"", _): word.append(ch)
      case (nil, "'"), (nil, "\""):
        quote = ch
        inWord = true
      case (nil, _) where ch.isWhitespace:
        if inWord { words.append(word) }
        word = ""
        inWord = false
      default:
        word.append(ch)
        inWord = true
      }
    }
    if let quote { return .failure(Problem(message: "has an unterminated \(quote) quote")) }
    if escaped { return .failure(Problem(message: "ends with a lone backslash")) }
    if inWord { words.append(word) }
    return .success(words)
  }
}
