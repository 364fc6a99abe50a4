// Fuzz target `web`: one HTTP request, as libmicrohttpd hands it over, through
// alarmclock web's handlers (WebApp.respond): routing, bearer and cookie access,
// CSRF, form and JSON decoding, config edits on a real file. The input is
//   METHOD-BYTE PATH "\n" HEADER-LINES "\n\n" BODY
// Beyond "no crash":
// - the reply's status is one HTTP knows (200..599) and every API reply is
//   JSON (an error object with a code and a message when >= 400);
// - a refused request (>= 400) leaves the config file byte-identical;
// - a request without credentials never gets a 2xx from the API.
import AlarmClient
import AlarmCore
import AlarmWeb
import Glibc

let methods = ["GET", "POST", "PATCH", "DELETE", "HEAD", "PUT", "OPTIONS", "BLAH"]
let dir: String = {
  var template = Array("/tmp/alarmclock-fuzz-web-XXXXXX".utf8CString)
  guard let made = mkdtemp(&template) else { fail("mkdtemp failed") }
  return String(cString: made)
}()
let configPath = dir + "/alarms.toml"
let config = """
  # fuzz config
  [settings]
  timezone = "UTC"

  [[alarm]]
  id = "work"
  time = "06:45"
  days = "weekdays"
  label = "Work"
  """
nonisolated(unsafe) let app = WebApp(
  setup: WebSetup(
    configPath: configPath, socketPath: dir + "/none.sock", stateDir: dir,
    environment: ["TZ": "UTC"], now: { Instant(seconds: 1_800_000_000) }),
  access: WebAccess(token: "sesame"))
let session = WebAccess(token: "sesame").newSession(now: Instant(seconds: 1_800_000_000))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzBytes(data, size)
  let control = input.byte()
  let method = methods[Int(control % 8)]
  let rest = Array(input.rest)
  let headEnd = rest.firstIndex(of: 0x0a) ?? rest.count
  let target = "/" + String(decoding: rest[..<headEnd], as: UTF8.self)
  let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
  let path = String(parts[0])
  let query = parts.count > 1 ? FormData(Array(parts[1].utf8))?.fields ?? [] : []
  var headers: [String: String] = [:]
  var body: [UInt8] = []
  if headEnd < rest.count {
    let after = Array(rest[(headEnd + 1)...])
    var lines = after.split(separator: 0x0a, omittingEmptySubsequences: false)[...]
    while let line = lines.first, !line.isEmpty {
      lines = lines.dropFirst()
      let text = String(decoding: line, as: UTF8.self)
      if let colon = text.firstIndex(of: ":") {
        headers[String(text[..<colon])] = String(text[text.index(after: colon)...])
      }
    }
    body = Array(lines.dropFirst().joined(separator: [0x0a]))
  }
  // Bit 3: the bearer token; bit 4: the page's cookie (and its CSRF token in bit 5).
  if control & 8 != 0 { headers["Authorization"] = "Bearer sesame" }
  if control & 16 != 0 { headers["Cookie"] = "\(WebAccess.cookieName)=\(session)" }
  if control & 32 != 0 { headers["X-CSRF-Token"] = WebAccess(token: "sesame").csrf(for: session) }
  let original = Array(config.utf8)
  guard FileManager_write(configPath, original) else { fail("cannot write the config") }
  let reply = app.respond(
    WebRequest(method: method, path: path, query: query, headers: headers, body: body))
  require((200...599).contains(reply.status), "status \(reply.status)")
  if path.hasPrefix("/api/"), reply.status != 204, method != "HEAD" {
    guard let value = try? JSONValue.parse(reply.body) else {
      fail("API reply is not JSON: \(String(decoding: reply.body, as: UTF8.self))")
    }
    if reply.status >= 400 {
      require(value["error"]?["code"] != nil, "error without a code")
      require(value["error"]?["message"] != nil, "error without a message")
    }
  }
  if reply.status >= 400 {
    require(readAll(configPath) == original, "a refused request changed the config")
  }
  if path.hasPrefix("/api/"), control & 24 == 0, headers["Authorization"] == nil,
    headers["Cookie"] == nil
  {
    require(reply.status >= 300, "the API answered \(reply.status) without credentials")
  }
  return 0
}

func FileManager_write(_ path: String, _ bytes: [UInt8]) -> Bool {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
}

func readAll(_ path: String) -> [UInt8] {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return [] }
  defer { close(fd) }
  var out: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { break }
    out += chunk[..<n]
  }
  return out
}
