/// "Did you mean" guesses for misspelt keys and values.
enum Suggestion {
  /// The candidate nearest to `word`, if it is near enough to be a likely typo:
  /// at most 2 edits (1 for words of up to 4 characters), ignoring case.
  /// Ties go to the earlier candidate.
  static func closest(to word: String, in candidates: [String]) -> String? {
    let w = Array(word.lowercased().unicodeScalars)
    var best: (String, Int)? = nil
    for candidate in candidates {
      let c = Array(candidate.lowercased().unicodeScalars)
      let limit = min(w.count, c.count) <= 4 ? 1 : 2
      let d = distance(w, c, limit: limit)
      if d <= limit, best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
    }
    return best?.0
  }

  /// Optimal-string-alignment distance (insert, delete, substitute, swap two
  /// neighbours); returns `limit + 1` as soon as it must exceed `limit`.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMin = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          v = min(v, previous2[j - 2] + 1)
        }
        current[j] = v
        rowMin = min(rowMin, v)
      }
      if rowMin > limit { return limit + 1 }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
