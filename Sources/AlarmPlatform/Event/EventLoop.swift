#if canImport(Glibc)
  import Glibc
#endif
import AlarmCore
import CShim

/// What a registered descriptor is ready for (or what went wrong with it).
public struct IOEvents: OptionSet, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let readable = IOEvents(rawValue: cshim_EPOLLIN)
  public static let writable = IOEvents(rawValue: cshim_EPOLLOUT)
  /// Both directions are closed (always reported, no need to ask for it).
  public static let hangup = IOEvents(rawValue: cshim_EPOLLHUP)
  /// The peer shut down its writing side (reported only if asked for: a level-triggered
  /// interest that nobody reads from would wake the loop forever).
  public static let peerClosed = IOEvents(rawValue: cshim_EPOLLRDHUP)
  /// An error is pending on the descriptor (always reported).
  public static let error = IOEvents(rawValue: cshim_EPOLLERR)

  public var description: String {
    let names: [(IOEvents, String)] = [
      (.readable, "readable"), (.writable, "writable"), (.hangup, "hangup"), (.peerClosed, "peerClosed"),
      (.error, "error"),
    ]
    return "[" + names.filter { !intersection($0.0).isEmpty }.map(\.1).joined(separator: ",") + "]"
  }
}

/// A single-threaded epoll loop. Descriptors are registered with a handler that runs on the
/// loop's thread when they become ready. `run()` sleeps in one `epoll_wait` with no timeout:
/// the loop never wakes up unless something happened (timers are `TimerFd`s).
///
/// Everything except `handle` is for the loop's own thread. Other threads talk to the loop
/// through `handle.post { }`, `handle.stop()` and `Mailbox`es, which wake it through an eventfd.
public final class EventLoop {
  /// A handler for ready events; it runs on the loop thread and must not block.
  public typealias Handler = (IOEvents) -> Void

  private struct Registration {
    var fd: Int32
    var handler: Handler
  }

  /// The thread-safe way in: post tasks, stop the loop.
  public let handle: EventLoopHandle
  private let epoll: FileDescriptor
  private var registrations: [UInt64: Registration] = [:]  // by epoll token
  private var tokens: [Int32: UInt64] = [:]  // fd -> its current token
  private var nextToken: UInt64 = 1
  private var stopRequested = false
  private var mailboxDrains: [Int: () -> Void] = [:]
  private static let inboxToken: UInt64 = 0

  public init() throws(SystemError) {
    let fd = try retryingEINTR("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    epoll = FileDescriptor(owning: fd)
    handle = EventLoopHandle(wake: try EventFd())
    let wakeFD = handle.wake.descriptor.rawValue
    try retryingEINTR("epoll_ctl(ADD, eventfd)") {
      cshim_epoll_ctl(fd, EPOLL_CTL_ADD, wakeFD, cshim_EPOLLIN, EventLoop.inboxToken)
    }
  }

  /// Calls `handler` whenever `fd` is ready for `interest` (hangup and error are always
  /// reported). Registering an fd again replaces its interest and handler. The loop does not
  /// own `fd`: unregister it before closing it.
  public func register(
    _ fd: FileDescriptor, interest: IOEvents, handler: @escaping Handler
  ) throws(SystemError) {
    let raw = fd.rawValue
    let token = nextToken
    nextToken += 1
    let ep = epoll.rawValue
    let events = interest.rawValue
    do throws(SystemError) {
      try retryingEINTR("epoll_ctl(ADD, \(fd))") {
        cshim_epoll_ctl(ep, EPOLL_CTL_ADD, raw, events, token)
      }
    } catch where error.errno == EEXIST {
      try retryingEINTR("epoll_ctl(MOD, \(fd))") {
        cshim_epoll_ctl(ep, EPOLL_CTL_MOD, raw, events, token)
      }
    }
    if let old = tokens[raw] { registrations[old] = nil }
    tokens[raw] = token
    registrations[token] = Registration(fd: raw, handler: handler)
  }

  /// Changes what a registered descriptor is watched for, keeping its handler.
  public func modify(_ fd: FileDescriptor, interest: IOEvents) throws(SystemError) {
    let raw = fd.rawValue
    guard let token = tokens[raw] else {
      throw SystemError("epoll_ctl(MOD, \(fd))", errno: ENOENT)
    }
    let ep = epoll.rawValue
    let events = interest.rawValue
    try retryingEINTR("epoll_ctl(MOD, \(fd))") {
      cshim_epoll_ctl(ep, EPOLL_CTL_MOD, raw, events, token)
    }
  }

  /// Stops watching `fd`. Events already collected for it in this round are dropped.
  /// Unknown descriptors are ignored.
  public func unregister(_ fd: FileDescriptor) {
    let raw = fd.rawValue
    guard let token = tokens.removeValue(forKey: raw) else { return }
    registrations[token] = nil
    _ = cshim_epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, raw, 0, 0)
  }

  /// True while `fd` is registered.
  public func isRegistered(_ fd: FileDescriptor) -> Bool { tokens[fd.rawValue] != nil }

  /// Runs until `stop()` (or `handle.stop()`); throws only if epoll itself fails.
  public func run() throws(SystemError) {
    stopRequested = false
    while !stopRequested {
      try runOnce(timeout: nil)
    }
  }

  /// Makes `run()` return after the current round of handlers.
  public func stop() { stopRequested = true }

  /// Waits once for events (at most `timeout`; nil waits forever) and dispatches them.
  /// Returns the number of events handled.
  @discardableResult
  public func runOnce(timeout: Duration?) throws(SystemError) -> Int {
    var ready = [cshim_epoll_ready](repeating: cshim_epoll_ready(), count: 64)
    let ms: Int32
    if let timeout {
      let (s, atto) = timeout.components
      ms = Int32(clamping: max(0, s * 1000 + atto / 1_000_000_000_000_000))
    } else {
      ms = -1
    }
    let ep = epoll.rawValue
    let count = try retryingEINTR("epoll_wait") {
      ready.withUnsafeMutableBufferPointer { cshim_epoll_wait(ep, $0.baseAddress, 64, ms) }
    }
    // Look handlers up per event: an earlier handler may have unregistered a later fd.
    for event in ready[..<Int(count)] {
      if event.token == EventLoop.inboxToken {
        drainInbox()
        continue
      }
      guard let registration = registrations[event.token] else { continue }
      registration.handler(IOEvents(rawValue: event.events))
    }
    return Int(count)
  }

  /// A typed channel from other threads into this loop: `send` from anywhere, and `handler`
  /// runs on the loop thread for each message, in order.
  public func makeMailbox<Message: Sendable>(
    _ type: Message.Type = Message.self, handler: @escaping (Message) -> Void
  ) -> Mailbox<Message> {
    let mailbox = Mailbox<Message>(id: handle.nextMailboxID(), loop: handle)
    mailboxDrains[mailbox.id] = { [weak mailbox] in
      guard let mailbox else { return }
      for message in mailbox.takeAll() { handler(message) }
    }
    return mailbox
  }

  private func drainInbox() {
    _ = handle.wake.drain()
    let inbox = handle.takeInbox()
    for id in inbox.mailboxes {
      mailboxDrains[id]?()
    }
    for task in inbox.tasks { task() }
    if inbox.stop { stopRequested = true }
  }
}
