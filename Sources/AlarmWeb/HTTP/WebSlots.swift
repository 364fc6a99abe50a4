/// Who keeps a connection slot of the web process (issues 24 and 28): the same policy as
/// the control socket's, so that no client, silent or trickling or guessing tokens, can
/// keep the owner's phone out.
///
/// - A connection's clock, `since`, starts when it is accepted and restarts only with
///   progress: a request whose headers are all in, and the completion of a request that
///   was not refused. A byte is not progress (slowloris), and a refused request (a wrong
///   token's 401, held back by the login throttle) does not restart it either.
/// - A connection whose clock is older than the idle timeout is closed: `timeout`, or
///   `pressureTimeout` while more than half the slots are taken.
/// - A newcomer always gets a slot: at `perAddress` connections from its address (an IPv4
///   address, an IPv6 /64; 127.0.0.1 and ::1, where a local TLS proxy puts every
///   client, are exempt) one of those is closed; at `connections` in all, one of all.
///   The one closed is a connection whose last request was refused (a wrong token) if
///   there is one, else the one idle the longest: the newest connections, such as the
///   owner's request, are the last ones closed, even among token guessers from the same
///   address.
///
/// Pure bookkeeping over times on CLOCK_MONOTONIC; the server does the closing.
struct WebSlots<ID: Hashable> {
  /// One open connection.
  struct Slot {
    var peer: WebPeer
    var since: Duration
    /// When the headers of the request in progress came in.
    var requestAt: Duration?
    /// The request in progress was refused: its completion is no progress.
    var refused = false
    /// Its last request was refused (until one is answered otherwise): closed first.
    var suspect = false
    /// Its clock: the request in progress, else the last progress.
    var clock: Duration { requestAt ?? since }
  }

  let limits: WebLimits
  private(set) var slots: [ID: Slot] = [:]

  init(limits: WebLimits) { self.limits = limits }

  var count: Int { slots.count }

  /// The idle timeout now: shorter while more than half the slots are taken.
  var timeout: Duration {
    slots.count * 2 > Int(limits.connections)
      ? limits.pressureTimeout : .seconds(Int64(limits.idleTimeout))
  }

  /// The connections to close so that a newcomer from `peer` fits (already forgotten).
  mutating func makeRoom(for peer: WebPeer) -> [ID] {
    var evicted: [ID] = []
    let same = peer.isLoopback ? [:] : slots.filter { $0.value.peer == peer }
    if same.count >= limits.perAddress, let id = Self.oldest(same) {
      evicted.append(id)
      slots[id] = nil
    }
    while slots.count >= Int(limits.connections), let id = Self.oldest(slots) {
      evicted.append(id)
      slots[id] = nil
    }
    return evicted
  }

  /// A connection was handed to the HTTP library.
  mutating func opened(_ id: ID, peer: WebPeer, now: Duration) {
    slots[id] = Slot(peer: peer, since: now)
  }

  /// The HTTP library closed it (a connection already evicted is ignored).
  mutating func closed(_ id: ID) { slots[id] = nil }

  /// A request's headers are all in.
  mutating func requestStarted(_ id: ID, now: Duration) {
    slots[id]?.requestAt = now
  }

  /// The request is refused (a 401): its time counts as idle.
  mutating func requestRefused(_ id: ID) {
    slots[id]?.requestAt = nil
    slots[id]?.refused = true
    slots[id]?.suspect = true
  }

  /// The request's reply is sent.
  mutating func requestCompleted(_ id: ID, now: Duration) {
    guard let slot = slots[id] else { return }
    if !slot.refused {
      slots[id]?.since = now
      slots[id]?.suspect = false
    }
    slots[id]?.requestAt = nil
    slots[id]?.refused = false
  }

  /// The connections whose clock ran past the timeout (already forgotten).
  mutating func expired(now: Duration) -> [ID] {
    let limit = timeout
    // Closures, not key paths: a key path into this generic type is built anew on each
    // call (a tenth of a cached API request).
    let gone = slots.filter { now - $0.value.clock >= limit }.map { $0.key }
    for id in gone { slots[id] = nil }
    return gone
  }

  /// When `expired` next has something to close, if anything is open.
  var nextDeadline: Duration? {
    slots.values.map { $0.clock }.min().map { $0 + timeout }
  }

  /// The one to close first: refused ones before the others, then the longest idle.
  private static func oldest(_ slots: [ID: Slot]) -> ID? {
    slots.min {
      $0.value.suspect != $1.value.suspect ? $0.value.suspect : $0.value.clock < $1.value.clock
    }?.key
  }
}

/// The address a connection counts against: an IPv4 address, or an IPv6 address's /64
/// (one host on a network usually holds a whole /64). IPv4-mapped IPv6 is its IPv4.
struct WebPeer: Hashable, Sendable, CustomStringConvertible {
  var bytes: [UInt8]

  init(_ bytes: [UInt8]) {
    if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff,
      bytes[11] == 0xff
    {
      self.bytes = Array(bytes[12...])
    } else if bytes.count == 16 {
      self.bytes = Array(bytes[0..<8])
    } else {
      self.bytes = bytes
    }
  }

  /// 127.0.0.1 or ::1 (whose /64 is all zeros): the address a local proxy connects
  /// from. The rest of 127.0.0.0/8 counts like any address, so that the per-address cap
  /// can be shown with real sockets (a client bound to 127.0.0.2).
  var isLoopback: Bool {
    bytes.count == 4 ? bytes == [127, 0, 0, 1] : bytes.allSatisfy { $0 == 0 }
  }

  var description: String {
    bytes.count == 4
      ? bytes.map(String.init).joined(separator: ".")
      : stride(from: 0, to: bytes.count, by: 2).map {
        String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
      }.joined(separator: ":") + "::/64"
  }
}
