/// A binary min-heap of each alarm's next firing, ordered by instant, then
/// alarm id, then position (so duplicate ids still order deterministically).
struct FiringHeap {
  struct Entry {
    var firing: Firing
    var index: Int
  }

  private var items: [Entry] = []

  var top: Entry? { items.first }

  mutating func reserve(_ n: Int) { items.reserveCapacity(n) }

  private static func less(_ a: Entry, _ b: Entry) -> Bool {
    if a.firing.at != b.firing.at { return a.firing.at < b.firing.at }
    if a.firing.alarmID != b.firing.alarmID { return a.firing.alarmID < b.firing.alarmID }
    return a.index < b.index
  }

  mutating func push(_ entry: Entry) {
    items.append(entry)
    var i = items.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard Self.less(items[i], items[parent]) else { break }
      items.swapAt(i, parent)
      i = parent
    }
  }

  mutating func popTop() {
    guard !items.isEmpty else { return }
    let last = items.removeLast()
    if !items.isEmpty { replaceTop(last) }
  }

  /// Replaces the smallest entry and restores the heap order.
  mutating func replaceTop(_ entry: Entry) {
    guard !items.isEmpty else { return push(entry) }
    items[0] = entry
    var i = 0
    while true {
      let left = 2 * i + 1
      let right = left + 1
      var smallest = i
      if left < items.count && Self.less(items[left], items[smallest]) { smallest = left }
      if right < items.count && Self.less(items[right], items[smallest]) { smallest = right }
      if smallest == i { return }
      items.swapAt(i, smallest)
      i = smallest
    }
  }
}
