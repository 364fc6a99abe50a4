import Synchronization

/// The thread-safe side of an `EventLoop`: any thread may post work or stop the loop.
public final class EventLoopHandle: Sendable {
  struct Inbox {
    var tasks: [@Sendable () -> Void] = []
    var mailboxes: [Int] = []
    var stop = false
  }

  let wake: EventFd
  private let inbox = Locked(Inbox())
  private let mailboxIDs = Atomic<Int>(0)

  init(wake: EventFd) { self.wake = wake }

  /// Runs `task` on the loop thread soon, after the handlers of the current round.
  public func post(_ task: @escaping @Sendable () -> Void) {
    inbox.withLock { $0.tasks.append(task) }
    wake.signal()
  }

  /// Makes the loop's `run()` return.
  public func stop() {
    inbox.withLock { $0.stop = true }
    wake.signal()
  }

  func nextMailboxID() -> Int { mailboxIDs.add(1, ordering: .relaxed).newValue }

  func mailboxHasMail(_ id: Int) {
    inbox.withLock { $0.mailboxes.append(id) }
    wake.signal()
  }

  func takeInbox() -> Inbox {
    inbox.withLock { inbox in
      let taken = inbox
      inbox = Inbox()
      return taken
    }
  }
}

/// Messages from any thread to a handler on the loop thread (see `EventLoop.makeMailbox`).
/// The audio thread uses one to report playback events without sharing the loop's state.
public final class Mailbox<Message: Sendable>: Sendable {
  let id: Int
  private let loop: EventLoopHandle
  private let queue = Locked<[Message]>([])

  init(id: Int, loop: EventLoopHandle) {
    self.id = id
    self.loop = loop
  }

  /// Queues `message` and wakes the loop; never blocks on the loop.
  public func send(_ message: Message) {
    let first = queue.withLock { queue in
      queue.append(message)
      return queue.count == 1
    }
    // One wake-up per batch: later sends before the drain ride along.
    if first { loop.mailboxHasMail(id) }
  }

  func takeAll() -> [Message] {
    queue.withLock { queue in
      let taken = queue
      queue.removeAll()
      return taken
    }
  }
}
