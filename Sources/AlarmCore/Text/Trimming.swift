extension StringProtocol {
  /// The text without white space (blanks, tabs, line breaks) at either end: what a
  /// person typed into a field or a file, as they meant it.
  public var trimmingWhitespace: SubSequence {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return self[endIndex...] }
    return self[first...last]
  }
}
