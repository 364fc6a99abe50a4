/// How the files of a sound folder take turns, one file per ring (`sound_order`).
public enum SoundOrder: String, Hashable, Sendable, CaseIterable {
  /// A random file each ring, never the one played last while there are two or more.
  case shuffle
  /// In name order, one step per ring, wrapping at the end.
  case rotate

  /// Words people write for an order, with the one they mean (for `check`'s suggestion).
  static let synonyms = [
    "random": "shuffle", "shuffled": "shuffle", "sequential": "rotate", "sequence": "rotate",
    "round-robin": "rotate", "cycle": "rotate",
  ]
}

/// Picks the next file of a sound folder. Pure: the caller lists the folder, gives the
/// file played last (kept in the state file by alarm) and a source of randomness.
public enum SoundPicker {
  /// The file to ring from `files` (names inside the folder), or nil when there is none.
  ///
  /// Rotate goes to the first name after `last` in name order (byte order of UTF-8), so a
  /// file added or removed keeps the turn where it was; after the last name it wraps.
  /// Shuffle picks at random among the files other than `last`.
  /// - Parameter random: returns an integer in `0..<n` for its argument `n` (n >= 1).
  public static func pick(
    _ files: [String], order: SoundOrder, last: String?,
    random: (Int) -> Int = { Int.random(in: 0..<$0) }
  ) -> String? {
    let sorted = Set(files).sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
    guard !sorted.isEmpty else { return nil }
    switch order {
    case .rotate:
      guard let last else { return sorted[0] }
      let lastBytes = Array(last.utf8)
      return sorted.first { lastBytes.lexicographicallyPrecedes($0.utf8) } ?? sorted[0]
    case .shuffle:
      let candidates = sorted.count >= 2 ? sorted.filter { $0 != last } : sorted
      return candidates[min(candidates.count - 1, max(0, random(candidates.count)))]
    }
  }
}
