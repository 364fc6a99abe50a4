/// Parses TOML 1.0 text. (Implementation in progress.)
public enum TOMLParser {
  /// Parses a whole document, or throws the first `TOMLError`.
  public static func parse(_ text: String) throws(TOMLError) -> TOMLDocument {
    throw TOMLError(position: SourcePosition(line: 1, column: 1, offset: 0), message: "not implemented")
  }
}
