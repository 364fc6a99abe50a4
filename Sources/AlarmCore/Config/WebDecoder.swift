/// `[web]`: where `alarmclock web` listens and where its token is.
public struct WebConfig: Hashable, Sendable {
  /// `listen = "HOST:PORT"` (an IP address or `localhost`); nil: 127.0.0.1:8080.
  public var listen: String?
  /// `token_file`, resolved against the config's directory; nil: `web-token` beside it.
  public var tokenFile: String?

  public init(listen: String? = nil, tokenFile: String? = nil) {
    self.listen = listen
    self.tokenFile = tokenFile
  }
}

enum WebDecoder {
  static let keys = ["listen", "token_file"]

  static func decode(_ r: TableReader, base: String?) -> WebConfig {
    var web = WebConfig()
    if let listen = r.string("listen", maxBytes: 64) {
      if isListenAddress(listen) {
        web.listen = listen
      } else if let entry = r.table.entry("listen") {
        r.mismatch(
          entry,
          "HOST:PORT with an IP address, e.g. \"127.0.0.1:8080\", \"0.0.0.0:8080\" or \"[::]:8080\"",
          actual: quoted(listen))
      }
    }
    web.tokenFile = r.string("token_file", maxBytes: TableReader.maxPathBytes).map {
      ConfigDecoder.resolve($0, base: base)
    }
    return web
  }

  /// `A.B.C.D:PORT`, `[IPv6]:PORT` or `localhost:PORT`, checked without the network.
  static func isListenAddress(_ text: String) -> Bool {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { return false }
    let host = text[..<colon]
    if host == "localhost" { return true }
    if host.hasPrefix("[") && host.hasSuffix("]") {
      let inner = host.dropFirst().dropLast()
      return !inner.isEmpty && inner.count <= 45 && inner.contains(":")
        && inner.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { p in
        !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isASCIIDigit) && Int(p)! <= 255
      }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
