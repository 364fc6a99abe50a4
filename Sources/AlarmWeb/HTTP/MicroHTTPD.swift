import AlarmPlatform
import CMicroHTTPD

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP limits of the web process (the slot policy: `WebSlots`).
public struct WebLimits: Sendable {
  /// Open connections at most; a newcomer past it closes the connection idle the longest.
  public var connections: UInt32 = 64
  /// Open connections from one address (IPv4, or an IPv6 /64) at most; a newcomer past it
  /// closes that address's connection idle the longest. Loopback is exempt: a TLS proxy
  /// in front puts every client on 127.0.0.1.
  public var perAddress: Int = 16
  /// Seconds a connection may go without progress (a complete request): idle, trickling
  /// a request (the slowloris attack: a byte is not progress), or refused.
  public var idleTimeout: UInt32 = 10
  /// The idle timeout while more than half the connection slots are taken.
  public var pressureTimeout: Duration = .seconds(2)
  /// Memory per connection for the request line and headers (libmicrohttpd answers a
  /// request that does not fit with 431/414 on its own).
  public var connectionMemory: Int = 32 * 1024
  /// Largest request body; a bigger one gets 413. A route may allow more to a caller it
  /// knows from the headers alone (`MicroHTTPD.bodyLimit`).
  public var maxBody: Int = 64 * 1024

  public init() {}
}

/// A libmicrohttpd daemon in external-loop mode (`MHD_USE_EPOLL`, no thread of its own)
/// and without a listening socket (`MHD_USE_NO_LISTEN_SOCKET`): `WebServer` accepts and
/// hands connections over with `add`. `epollDescriptor` goes into our `EventLoop`, `run()`
/// is called when it is readable and `timeout` says when to call it anyway. Requests are
/// collected into `WebRequest`s and answered by `respond`; a reply with a `delay` suspends
/// its connection until `resume`. The `on...` callbacks report each connection's life to
/// the slot policy.
final class MicroHTTPD {
  /// Answers one complete request (on the loop thread).
  typealias Respond = (WebRequest) -> WebResponse

  private var daemon: OpaquePointer?
  private let limits: WebLimits
  private let respond: Respond
  /// The body a request may send, decided from its method, path and headers before any
  /// of the body is read (nil: `limits.maxBody`). A photo upload by a logged-in caller
  /// may send megabytes; nobody else can make the process buffer more than `maxBody`.
  var bodyLimit: ((WebRequest) -> Int)?
  /// Called with a connection whose reply waits for `delay`; call `resume` after it.
  var onDelayed: ((OpaquePointer, Duration) -> Void)?
  /// Called on every request start: its headers are all in.
  var onRequest: ((OpaquePointer) -> Void)?
  /// Called when a request is refused (a 401): no progress for the slot policy.
  var onRefused: ((OpaquePointer) -> Void)?
  /// Called when a request's reply is sent.
  var onCompleted: ((OpaquePointer) -> Void)?
  /// Called when a connection is handed over (with its socket) and when it is closed.
  var onOpened: ((OpaquePointer, Int32) -> Void)?
  var onClosed: ((OpaquePointer) -> Void)?
  /// Connections opened and not yet completed.
  private(set) var openRequests = 0

  /// Starts the daemon; it serves the connections given to `add`.
  init(limits: WebLimits, respond: @escaping Respond) throws(SystemError) {
    self.limits = limits
    self.respond = respond
    let context = Unmanaged.passUnretained(self).toOpaque()
    var config = cmhd_config(
      flags: UInt32(MHD_USE_EPOLL.rawValue) | UInt32(MHD_ALLOW_SUSPEND_RESUME.rawValue)
        | UInt32(MHD_USE_NO_LISTEN_SOCKET.rawValue),
      // Room for connections closed by the slot policy that the daemon has not reaped yet.
      connection_limit: limits.connections * 2,
      connection_timeout: limits.idleTimeout, connection_memory_limit: limits.connectionMemory,
      handler: microHTTPDAccess, completed: microHTTPDCompleted,
      notify_connection: microHTTPDConnection, context: context)
    guard let d = cmhd_start(&config) else {
      throw SystemError("MHD_start_daemon", errno: errno == 0 ? EINVAL : errno)
    }
    daemon = d
  }

  deinit { stop() }

  /// Hands an accepted connection over (the daemon closes it, also when this fails).
  func add(_ fd: Int32, address: UnsafePointer<sockaddr>, length: socklen_t) -> Bool {
    guard let d = daemon else {
      Glibc.close(fd)
      return false
    }
    return MHD_add_connection(d, fd, address, length) == .YES
  }

  /// Closes every connection.
  func stop() {
    if let d = daemon { MHD_stop_daemon(d) }
    daemon = nil
  }

  /// The daemon's epoll descriptor (not owned: it lives as long as the daemon).
  var epollDescriptor: Int32 { daemon.map(cmhd_epoll_fd) ?? -1 }

  /// Does the pending work: accepts, reads, answers, times out idle connections.
  func run() {
    if let d = daemon { _ = MHD_run(d) }
  }

  /// When `run()` must be called even without readiness (a connection's timeout).
  var timeout: Duration? {
    guard let d = daemon else { return nil }
    var ms: UInt64 = 0
    guard MHD_get_timeout(d, &ms) == .YES else { return nil }
    return .milliseconds(Int64(clamping: ms))
  }

  /// Lets a delayed connection send its reply.
  func resume(_ connection: OpaquePointer) {
    MHD_resume_connection(connection)
  }

  /// One request's state across the handler calls libmicrohttpd makes for it.
  final class Exchange {
    var body: [UInt8] = []
    var limit: Int
    var tooLarge = false
    init(limit: Int) { self.limit = limit }
    var pending: WebResponse?
  }

  fileprivate func access(
    _ connection: OpaquePointer, url: String, method: String,
    upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
    slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) -> MHD_Result {
    guard let raw = slot.pointee else {
      // First call: the headers are in. Refuse an announced oversize body before reading it.
      var limit = limits.maxBody
      if let bodyLimit {
        limit = bodyLimit(
          WebRequest(
            method: method, path: url,
            headers: Dictionary(
              pairs(connection, .HEADER_KIND).map { ($0.name.lowercased(), $0.value) }
            ) { a, b in a + ", " + b }))
      }
      let exchange = Exchange(limit: limit)
      slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
      openRequests += 1
      onRequest?(connection)
      // Two lengths: which one frames the body is ambiguous (request smuggling through a
      // proxy that picks the other one); refused before any body is read.
      let lengths = pairs(connection, .HEADER_KIND).filter {
        $0.name.lowercased() == "content-length"
      }
      if lengths.count > 1 {
        var r = WebResponse.error(
          400, "bad-request", "the request has \(lengths.count) Content-Length headers")
        r.headers.append(("Connection", "close"))
        return queue(connection, r)
      }
      if let length = lookup(connection, .HEADER_KIND, "Content-Length"),
        let n = Int(length), n > exchange.limit
      {
        return queue(connection, tooLarge(exchange.limit))
      }
      return .YES
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      let n = uploadSize.pointee
      if exchange.body.count + n > exchange.limit {
        exchange.tooLarge = true
        exchange.body = []
      } else if let upload {
        upload.withMemoryRebound(to: UInt8.self, capacity: n) {
          exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
        }
      }
      uploadSize.pointee = 0
      return .YES
    }
    if let pending = exchange.pending {
      // Resumed after its delay.
      return queue(connection, pending)
    }
    if exchange.tooLarge { return queue(connection, tooLarge(exchange.limit)) }
    let request = WebRequest(
      method: method, path: url, query: pairs(connection, .GET_ARGUMENT_KIND),
      headers: Dictionary(pairs(connection, .HEADER_KIND).map { ($0.name.lowercased(), $0.value) })
      { a, b in a + ", " + b },
      body: exchange.body)
    var response = respond(request)
    if response.status == 401 { onRefused?(connection) }
    if let delay = response.delay, delay > .zero {
      response.delay = nil
      exchange.pending = response
      MHD_suspend_connection(connection)
      onDelayed?(connection, delay)
      return .YES
    }
    return queue(connection, response)
  }

  fileprivate func completed(
    _ connection: OpaquePointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) {
    guard let slot, let raw = slot.pointee else { return }
    Unmanaged<Exchange>.fromOpaque(raw).release()
    slot.pointee = nil
    openRequests -= 1
    if let connection { onCompleted?(connection) }
  }

  fileprivate func connection(_ connection: OpaquePointer, started: Bool) {
    if started {
      onOpened?(connection, cmhd_connection_fd(connection))
    } else {
      onClosed?(connection)
    }
  }

  private func tooLarge(_ limit: Int) -> WebResponse {
    var r = WebResponse.error(
      413, "body-too-large", "the request body is over \(limit) bytes")
    r.headers.append(("Connection", "close"))
    return r
  }

  private func queue(_ connection: OpaquePointer, _ response: WebResponse) -> MHD_Result {
    let r = response.body.withUnsafeBytes { bytes in
      MHD_create_response_from_buffer(
        bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let r else { return .NO }
    defer { MHD_destroy_response(r) }
    for (name, value) in response.headers { _ = MHD_add_response_header(r, name, value) }
    // Replies made here (413, 400) get the headers WebApp's replies carry.
    if response.header("X-Content-Type-Options") == nil {
      for (name, value) in WebResponse.safetyHeaders { _ = MHD_add_response_header(r, name, value) }
    }
    return MHD_queue_response(connection, UInt32(response.status), r)
  }

  private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String)
    -> String?
  {
    MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
  }

  private func pairs(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(
    name: String, value: String
  )] {
    final class Box { var items: [(name: String, value: String)] = [] }
    let box = Box()
    withExtendedLifetime(box) {
      _ = MHD_get_connection_values(
        connection, kind,
        { cls, _, key, value in
          guard let cls, let key else { return .YES }
          let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
          box.items.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
          return .YES
        }, Unmanaged.passUnretained(box).toOpaque())
    }
    return box.items
  }
}

/// libmicrohttpd's access callback, back into the Swift object named by `cls`.
private func microHTTPDAccess(
  cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
  method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
  upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
  slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
  guard let cls, let connection, let url, let method, let uploadSize, let slot else {
    return .NO
  }
  let server = Unmanaged<MicroHTTPD>.fromOpaque(cls).takeUnretainedValue()
  return server.access(
    connection, url: String(cString: url), method: String(cString: method), upload: upload,
    uploadSize: uploadSize, slot: slot)
}

/// libmicrohttpd's request-completed callback: frees the request's `Exchange`.
private func microHTTPDCompleted(
  cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
  slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, code: MHD_RequestTerminationCode
) {
  guard let cls else { return }
  Unmanaged<MicroHTTPD>.fromOpaque(cls).takeUnretainedValue().completed(connection, slot)
}

/// libmicrohttpd's connection callback: a connection started or closed.
private func microHTTPDConnection(
  cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
  socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
  code: MHD_ConnectionNotificationCode
) {
  guard let cls, let connection else { return }
  Unmanaged<MicroHTTPD>.fromOpaque(cls).takeUnretainedValue().connection(
    // MHD_CONNECTION_NOTIFY_STARTED is 0 (the enum's case names differ between versions).
    connection, started: code.rawValue == 0)
}
