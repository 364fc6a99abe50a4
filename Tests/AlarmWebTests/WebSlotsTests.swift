import Testing

@testable import AlarmWeb

/// The slot policy as bookkeeping: who is closed to make room, and when.
@Suite struct WebSlotsTests {
  static let a = WebPeer([10, 0, 0, 1])
  static let b = WebPeer([10, 0, 0, 2])

  static func slots(connections: UInt32 = 8, perAddress: Int = 4) -> WebSlots<Int> {
    var limits = WebLimits()
    limits.connections = connections
    limits.perAddress = perAddress
    return WebSlots(limits: limits)
  }

  @Test func aNewcomerClosesTheOldestOfItsAddressThenOfAll() {
    var s = Self.slots()
    for i in 0..<4 {
      #expect(s.makeRoom(for: Self.a).isEmpty)
      s.opened(i, peer: Self.a, now: .seconds(i))
    }
    // A fifth from a: its oldest goes.
    #expect(s.makeRoom(for: Self.a) == [0])
    s.opened(4, peer: Self.a, now: .seconds(4))
    for i in 5..<9 {
      #expect(s.makeRoom(for: Self.b).isEmpty)
      s.opened(i, peer: Self.b, now: .seconds(i))
    }
    // At the cap (8): the oldest of all, whatever its address.
    #expect(s.count == 8)
    #expect(s.makeRoom(for: WebPeer([10, 0, 0, 3])) == [1])
  }

  @Test func loopbackHasNoPerAddressCap() {
    var s = Self.slots()
    let local = WebPeer([127, 0, 0, 1])
    #expect(local.isLoopback && WebPeer([UInt8](repeating: 0, count: 15) + [1]).isLoopback)
    #expect(!Self.a.isLoopback && !WebPeer([127, 0, 0, 2]).isLoopback)
    for i in 0..<8 {
      #expect(s.makeRoom(for: local).isEmpty)
      s.opened(i, peer: local, now: .seconds(i))
    }
    #expect(s.makeRoom(for: local) == [0])
  }

  @Test func onlyCompleteUnrefusedRequestsAreProgress() {
    var s = Self.slots()
    s.opened(1, peer: Self.a, now: .zero)
    s.opened(2, peer: Self.a, now: .zero)
    // 1 completes a request at 5 s; 2 is refused at 5 s (a wrong token).
    s.requestStarted(1, now: .seconds(5))
    s.requestCompleted(1, now: .seconds(5))
    s.requestStarted(2, now: .seconds(5))
    s.requestRefused(2)
    s.requestCompleted(2, now: .seconds(6))
    #expect(s.nextDeadline == .seconds(10))
    #expect(s.expired(now: .seconds(10)) == [2])
    #expect(s.expired(now: .seconds(14)).isEmpty)
    #expect(s.expired(now: .seconds(15)) == [1])
    #expect(s.nextDeadline == nil)
  }

  @Test func connectionsRefusedLastAreClosedFirst() {
    var s = Self.slots()
    for i in 0..<4 { s.opened(i, peer: Self.a, now: .seconds(i)) }
    // 3, the newest, guessed a wrong token; 0 is the oldest.
    s.requestStarted(3, now: .seconds(4))
    s.requestRefused(3)
    s.requestCompleted(3, now: .seconds(5))
    #expect(s.makeRoom(for: Self.a) == [3])
    s.opened(4, peer: Self.a, now: .seconds(6))
    // A refusal is forgiven by a request answered otherwise.
    s.requestStarted(2, now: .seconds(6))
    s.requestRefused(2)
    s.requestCompleted(2, now: .seconds(6))
    s.requestStarted(2, now: .seconds(7))
    s.requestCompleted(2, now: .seconds(7))
    #expect(s.makeRoom(for: Self.a) == [0])
  }

  @Test func pressureShortensTheTimeout() {
    var s = Self.slots(connections: 8, perAddress: 8)
    for i in 0..<4 { s.opened(i, peer: Self.a, now: .zero) }
    #expect(s.timeout == .seconds(10))
    s.opened(4, peer: Self.a, now: .zero)
    #expect(s.timeout == .seconds(2))
    #expect(s.expired(now: .seconds(2)).count == 5)
  }

  @Test func peersGroupIPv6ByPrefixAndUnmapIPv4() {
    let mapped = WebPeer([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 5])
    #expect(mapped == WebPeer([192, 168, 1, 5]))
    #expect(mapped.description == "192.168.1.5")
    let one = WebPeer([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 1])
    let two = WebPeer([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1] + [9, 9, 9, 9, 9, 9, 9, 9])
    #expect(one == two)
    #expect(one.description == "2001:db8:0:1::/64")
  }
}
