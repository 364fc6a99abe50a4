import Foundation

/// Collects events from another thread and lets a test wait for one.
public final class EventLog<Event: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [(event: Event, realtime: Double)] = []

  public init() {}

  /// Appends (callable from any thread).
  public func append(_ e: Event) {
    condition.lock()
    items.append((e, realtimeNow()))
    condition.broadcast()
    condition.unlock()
  }

  public var events: [Event] {
    condition.lock()
    defer { condition.unlock() }
    return items.map(\.event)
  }

  /// Waits up to `timeout` seconds for an event matching `match`; returns it and when it came.
  @discardableResult
  public func wait(timeout: Double = 10, _ match: (Event) -> Bool) -> (Event, Double)? {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let hit = items.first(where: { match($0.event) }) { return (hit.event, hit.realtime) }
      if !condition.wait(until: deadline) { return nil }
    }
  }
}
