import AlarmCore

/// One HTTP request as the handlers see it: no sockets, so routing, auth, forms and JSON
/// are tested with plain values.
public struct WebRequest: Sendable {
  /// `GET`, `POST`, ... as sent.
  public var method: String
  /// The path, without the query.
  public var path: String
  /// Query arguments in order, percent-decoded.
  public var query: [(name: String, value: String)]
  /// Header values by lower-cased name (a repeated header: the values joined by ", ").
  public var headers: [String: String]
  /// The body (empty for most requests).
  public var body: [UInt8]

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [],
    headers: [String: String] = [:], body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { a, b in
      a + ", " + b
    }
    self.body = body
  }

  /// A header's value (`name` in any case).
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The first query argument called `name`.
  public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// The cookies of the `Cookie` header.
  public var cookies: [String: String] {
    var out: [String: String] = [:]
    for part in (header("cookie") ?? "").split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { continue }
      let name = pair[0].trimmingBlanks
      if out[name] == nil { out[name] = pair[1].trimmingBlanks }
    }
    return out
  }
}

/// An HTTP reply: status, headers, body, and optionally a delay before it is sent (failed
/// logins are slowed down without blocking the loop).
public struct WebResponse: Sendable {
  public var status: Int
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]
  /// Hold the reply back this long (the connection waits; the loop does not).
  public var delay: Duration?

  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The first header called `name` (any case).
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The headers every reply carries: out of caches, frames and content sniffing.
  public static let safetyHeaders: [(name: String, value: String)] = [
    ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
  ]

  /// A JSON reply (`application/json`, a final newline so `curl` output ends its line).
  public static func json(_ value: JSONValue, status: Int = 200) -> WebResponse {
    WebResponse(
      status: status, headers: [("Content-Type", "application/json")],
      body: Array((value.encoded() + "\n").utf8))
  }

  /// An HTML page.
  public static func html(_ text: String, status: Int = 200) -> WebResponse {
    WebResponse(
      status: status, headers: [("Content-Type", "text/html; charset=utf-8")],
      body: Array(text.utf8))
  }

  /// `303 See Other` to `location` (after a form post).
  public static func redirect(_ location: String) -> WebResponse {
    WebResponse(status: 303, headers: [("Location", location)])
  }

  /// The API's error object: `{"error":{"code":...,"message":...,"details":[...]}}`.
  public static func error(_ status: Int, _ code: String, _ message: String, details: [String] = [])
    -> WebResponse
  {
    var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
    if !details.isEmpty { error["details"] = .array(details.map { .string($0) }) }
    return json(.object(["error": .object(error)]), status: status)
  }
}

extension Substring {
  var trimmingBlanks: String {
    String(
      drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" })
        .reversed())
  }
}
