import AlarmCore
import CShim

#if canImport(Glibc)
  import Glibc
#endif

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
      (.readable, "readable"), (.writable, "writable"), (.hangup, "hangup"),
      (.peerClosed, "peerClosed"),
      (.error, "error"),
    ]
    return "[" + names.filter { !intersection($0.0).isEmpty }.map(\.1).joined(separator: ",") + "]"
  }
}

/// How urgently a registration's events are served (see `EventLoop`).
public enum EventPriority: Sendable, Hashable {
  /// Timers, signals, inputs, mailboxes, hooks: dispatched first, every round, unbudgeted.
  case urgent
  /// Work a client asks for (control connections): served round-robin in bounded turns
  /// after the urgent events, so no client traffic can delay an urgent source for long.
  case client
}

/// A single-threaded epoll loop. Descriptors are registered with a handler that runs on the
/// loop's thread when they become ready. `run()` sleeps in one `epoll_wait` with no timeout:
/// the loop never wakes up unless something happened (timers are `TimerFd`s).
///
/// Fairness: `.client` registrations live in a second epoll set nested in the main one.
/// Each round dispatches every ready urgent event first, then one client turn: queued client
/// items (ready client descriptors and `queueClientWork` tasks, each lane in FIFO order, the
/// lanes taken in turn: `ClientLanes`) until `clientBudget` of CLOCK_MONOTONIC time is
/// spent. Whatever is left waits for the next round, which polls the urgent sources first
/// (without sleeping while client work waits).
///
/// With a `clientShare`, client work as a whole gets at most its budget of each window:
/// once it is spent, the client set leaves the wait until the window ends and the loop
/// sleeps for what is left of it. The loop runs SCHED_FIFO when the system allows it
/// (`ThreadPriority`): without this share a flood would keep it busy until the kernel's
/// real-time throttling stopped it for 50 ms, a press or a firing with it.
///
/// Everything except `handle` is for the loop's own thread. Other threads talk to the loop
/// through `handle.post { }`, `handle.stop()` and `Mailbox`es, which wake it through an eventfd.
public final class EventLoop {
  /// A handler for ready events; it runs on the loop thread and must not block.
  public typealias Handler = (IOEvents) -> Void

  private struct Registration {
    var fd: Int32
    var priority: EventPriority
    var interest: IOEvents
    var handler: Handler
  }

  /// The thread-safe way in: post tasks, stop the loop.
  public let handle: EventLoopHandle
  /// Client work done per round before the loop polls the urgent sources again (at least
  /// one client item runs per round, so a single slow handler can exceed it once).
  public var clientBudget: Duration = .milliseconds(1)
  /// The most client work may take of each window (see the type's comment); nil: no cap
  /// (the web process, which runs at normal priority and is nothing but client work).
  public var clientShare: (budget: Duration, window: Duration)? = nil
  /// The alarm service's share: 40 % of a CPU at most for all its clients together.
  public static let serviceClientShare = (
    budget: Duration.milliseconds(40), window: Duration.milliseconds(100)
  )
  /// When the current share window began, and how much client work it has had.
  private var shareWindowStart: Duration = .zero
  private var shareSpent: Duration = .zero
  /// Whether the client set is in the main set's wait (out while its share is spent).
  private var clientSetWatched = true
  private let epoll: FileDescriptor
  private let clientEpoll: FileDescriptor
  private var registrations: [UInt64: Registration] = [:]  // by epoll token
  private var tokens: [Int32: UInt64] = [:]  // fd -> its current token
  private var nextToken: UInt64 = 1
  private var stopRequested = false
  private var mailboxDrains: [Int: () -> Void] = [:]
  private var clientLanes = ClientLanes()
  private static let inboxToken: UInt64 = 0
  private static let clientSetToken = UInt64.max

  public init() throws(SystemError) {
    let fd = try retryingEINTR("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    epoll = FileDescriptor(owning: fd)
    let clientFD = try retryingEINTR("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    clientEpoll = FileDescriptor(owning: clientFD)
    handle = EventLoopHandle(wake: try EventFd())
    let wakeFD = handle.wake.descriptor.rawValue
    try retryingEINTR("epoll_ctl(ADD, eventfd)") {
      cshim_epoll_ctl(fd, EPOLL_CTL_ADD, wakeFD, cshim_EPOLLIN, EventLoop.inboxToken)
    }
    // An epoll set is readable while any of its descriptors is ready.
    try retryingEINTR("epoll_ctl(ADD, client set)") {
      cshim_epoll_ctl(fd, EPOLL_CTL_ADD, clientFD, cshim_EPOLLIN, EventLoop.clientSetToken)
    }
  }

  /// Calls `handler` whenever `fd` is ready for `interest` (hangup and error are always
  /// reported). Registering an fd again replaces its interest, priority and handler. The
  /// loop does not own `fd`: unregister it before closing it.
  public func register(
    _ fd: FileDescriptor, interest: IOEvents, priority: EventPriority = .urgent,
    handler: @escaping Handler
  ) throws(SystemError) {
    let raw = fd.rawValue
    if let old = tokens[raw], registrations[old]?.priority != priority { unregister(fd) }
    let token = nextToken
    nextToken += 1
    let ep = set(for: priority)
    let events = interest.rawValue
    do throws(SystemError) {
      try retryingEINTR("epoll_ctl(ADD, \(fd))") {
        cshim_epoll_ctl(ep, EPOLL_CTL_ADD, raw, events, token)
      }
    } catch  where error.errno == EEXIST {
      try retryingEINTR("epoll_ctl(MOD, \(fd))") {
        cshim_epoll_ctl(ep, EPOLL_CTL_MOD, raw, events, token)
      }
    }
    if let old = tokens[raw] { registrations[old] = nil }
    tokens[raw] = token
    registrations[token] = Registration(
      fd: raw, priority: priority, interest: interest, handler: handler)
  }

  /// Changes what a registered descriptor is watched for, keeping its handler.
  public func modify(_ fd: FileDescriptor, interest: IOEvents) throws(SystemError) {
    let raw = fd.rawValue
    guard let token = tokens[raw], let registration = registrations[token] else {
      throw SystemError("epoll_ctl(MOD, \(fd))", errno: ENOENT)
    }
    let ep = set(for: registration.priority)
    let events = interest.rawValue
    try retryingEINTR("epoll_ctl(MOD, \(fd))") {
      cshim_epoll_ctl(ep, EPOLL_CTL_MOD, raw, events, token)
    }
    registrations[token]?.interest = interest
  }

  /// Stops watching `fd`. Events already collected for it are dropped.
  /// Unknown descriptors are ignored.
  public func unregister(_ fd: FileDescriptor) {
    let raw = fd.rawValue
    guard let token = tokens.removeValue(forKey: raw) else { return }
    let priority = registrations.removeValue(forKey: token)?.priority ?? .urgent
    _ = cshim_epoll_ctl(set(for: priority), EPOLL_CTL_DEL, raw, 0, 0)
  }

  /// True while `fd` is registered.
  public func isRegistered(_ fd: FileDescriptor) -> Bool { tokens[fd.rawValue] != nil }

  /// Runs `work` on the loop thread in a later client turn, after the tasks already queued
  /// (ready client descriptors take turns with them): how a client with more buffered
  /// requests waits for its next turn.
  public func queueClientWork(_ work: @escaping () -> Void) {
    clientLanes.append(work)
  }

  /// True while client items wait for a turn (the loop then polls instead of sleeping).
  public var hasClientWork: Bool { !clientLanes.isEmpty }

  /// Runs until `stop()` (or `handle.stop()`); throws only if epoll itself fails.
  public func run() throws(SystemError) {
    stopRequested = false
    while !stopRequested {
      try runOnce(timeout: nil)
    }
  }

  /// Makes `run()` return after the current round of handlers.
  public func stop() { stopRequested = true }

  /// Waits once for events (at most `timeout`; nil waits forever; no wait while client work
  /// is queued), dispatches the urgent ones, then runs one budgeted client turn. Returns the
  /// number of urgent events and client items handled.
  @discardableResult
  public func runOnce(timeout: Duration?) throws(SystemError) -> Int {
    var ready = [cshim_epoll_ready](repeating: cshim_epoll_ready(), count: 64)
    let shareLeft = try clientShareLeft()
    var ms: Int32
    if hasClientWork && shareLeft == nil {
      ms = 0
    } else if let timeout {
      ms = Self.milliseconds(timeout, roundingUp: false)
    } else {
      ms = -1
    }
    if let shareLeft {
      // Client work waits for the next window: sleep until then at the longest.
      let untilWindow = Self.milliseconds(shareLeft, roundingUp: true)
      ms = ms < 0 ? untilWindow : min(ms, untilWindow)
    }
    let ep = epoll.rawValue
    let count = try retryingEINTR("epoll_wait") {
      ready.withUnsafeMutableBufferPointer { cshim_epoll_wait(ep, $0.baseAddress, 64, ms) }
    }
    var handled = 0
    var clientsReady = false
    // Look handlers up per event: an earlier handler may have unregistered a later fd.
    for event in ready[..<Int(count)] {
      switch event.token {
      case EventLoop.inboxToken:
        drainInbox()
        handled += 1
      case EventLoop.clientSetToken:
        clientsReady = true
      default:
        guard let registration = registrations[event.token] else { continue }
        registration.handler(IOEvents(rawValue: event.events))
        handled += 1
      }
    }
    if (clientsReady || hasClientWork) && clientSetWatched {
      let started = Clock.monotonic.now()
      handled += try clientTurn(pollSet: clientsReady)
      shareSpent += Clock.monotonic.now() - started
    }
    return handled
  }

  /// Starts a new share window when the last one is over, and takes the client set out of
  /// the wait (or puts it back) as the window's share allows. Returns how long until the
  /// window ends while its share is spent, nil while client work may run.
  private func clientShareLeft() throws(SystemError) -> Duration? {
    let now = Clock.monotonic.now()
    var left: Duration? = nil
    if let clientShare {
      if now - shareWindowStart >= clientShare.window {
        shareWindowStart = now
        shareSpent = .zero
      }
      if shareSpent >= clientShare.budget { left = shareWindowStart + clientShare.window - now }
    }
    let spent = left != nil
    if spent == clientSetWatched {
      let events: UInt32 = spent ? 0 : cshim_EPOLLIN
      let ep = epoll.rawValue
      let cep = clientEpoll.rawValue
      try retryingEINTR("epoll_ctl(MOD, client set)") {
        cshim_epoll_ctl(ep, EPOLL_CTL_MOD, cep, events, EventLoop.clientSetToken)
      }
      clientSetWatched = !spent
    }
    return left
  }

  private static func milliseconds(_ duration: Duration, roundingUp: Bool) -> Int32 {
    let (s, atto) = duration.components
    let perMs: Int64 = 1_000_000_000_000_000
    let ms = s * 1000 + atto / perMs + (roundingUp && atto % perMs != 0 ? 1 : 0)
    return Int32(clamping: max(roundingUp ? 1 : 0, ms))
  }

  private func set(for priority: EventPriority) -> Int32 {
    priority == .urgent ? epoll.rawValue : clientEpoll.rawValue
  }

  /// Runs queued client items until the budget is spent. Ready client descriptors are
  /// collected only once the previous batch is served: they are level-triggered, so a
  /// descriptor still queued would otherwise be queued twice.
  private func clientTurn(pollSet: Bool) throws(SystemError) -> Int {
    if pollSet && clientLanes.readyCount == 0 {
      var ready = [cshim_epoll_ready](repeating: cshim_epoll_ready(), count: 64)
      let cep = clientEpoll.rawValue
      let count = try retryingEINTR("epoll_wait(clients)") {
        ready.withUnsafeMutableBufferPointer { cshim_epoll_wait(cep, $0.baseAddress, 64, 0) }
      }
      for event in ready[..<Int(count)] {
        clientLanes.append(token: event.token, events: IOEvents(rawValue: event.events))
      }
    }
    let deadline = TimerFd.Clock.monotonic.now() + clientBudget
    // Items queued during this turn (a client's next request) wait for the next one.
    let end = clientLanes.mark
    var handled = 0
    while let item = clientLanes.next(before: end) {
      handled += 1
      switch item {
      case .task(let work):
        work()
      case .ready(let token, let events):
        // The interest may have narrowed since the event was collected.
        guard let registration = registrations[token] else { continue }
        let wanted = events.intersection(registration.interest.union([.hangup, .error]))
        if !wanted.isEmpty { registration.handler(wanted) }
      }
      if TimerFd.Clock.monotonic.now() >= deadline { break }
    }
    clientLanes.compact()
    return handled
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
