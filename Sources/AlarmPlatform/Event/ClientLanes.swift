/// An `EventLoop`'s queued client work, in two lanes: descriptors that became ready (a
/// newcomer's first request, or a client whose buffered requests ran out and that sent
/// more) and tasks (a client's next buffered request, through `queueClientWork`).
///
/// Items are taken from the lanes in turn, so a fresh request waits for at most one backlog
/// item per ready item ahead of it, however many clients have backlogs (issue 24: 200
/// pipelining connections made an operator's `status` wait for two full rounds of them),
/// and neither lane can starve the other.
struct ClientLanes {
  enum Item {
    case ready(token: UInt64, events: IOEvents)
    case task(() -> Void)
  }

  /// Where the lanes ended when a turn began: what is queued later waits for the next turn.
  struct Mark {
    fileprivate var ready: Int
    fileprivate var tasks: Int
  }

  private var ready: [(token: UInt64, events: IOEvents)] = []
  private var readyHead = 0
  private var tasks: [() -> Void] = []
  private var taskHead = 0
  private var readyNext = true

  /// Ready descriptors not yet handled.
  var readyCount: Int { ready.count - readyHead }
  var isEmpty: Bool { readyHead == ready.count && taskHead == tasks.count }

  mutating func append(token: UInt64, events: IOEvents) { ready.append((token, events)) }
  mutating func append(_ task: @escaping () -> Void) { tasks.append(task) }

  var mark: Mark { Mark(ready: ready.count, tasks: tasks.count) }

  /// The next item queued before `mark`, alternating lanes (ready first when both wait).
  mutating func next(before mark: Mark) -> Item? {
    let haveReady = readyHead < mark.ready
    let haveTask = taskHead < mark.tasks
    if haveReady && (readyNext || !haveTask) {
      readyNext = false
      let r = ready[readyHead]
      readyHead += 1
      return .ready(token: r.token, events: r.events)
    }
    guard haveTask else { return nil }
    readyNext = true
    let task = tasks[taskHead]
    taskHead += 1
    return .task(task)
  }

  /// Forgets handled items (cheaply: only when a lane is empty or its head is far in).
  mutating func compact() {
    Self.compact(&ready, &readyHead)
    Self.compact(&tasks, &taskHead)
  }

  private static func compact<T>(_ lane: inout [T], _ head: inout Int) {
    if head == lane.count {
      lane.removeAll(keepingCapacity: lane.count <= 1024)
      head = 0
    } else if head >= 1024 {
      lane.removeFirst(head)
      head = 0
    }
  }
}
