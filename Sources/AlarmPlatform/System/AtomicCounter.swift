import Synchronization

/// A thread-safe counter for unique names and tokens.
final class AtomicCounter: Sendable {
  private let value = Atomic<Int>(0)
  func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
