import AlarmPlatform
import Foundation
import Glibc
import Testing

/// Issue 15: a flood on the control socket must not delay inputs, timers or other clients,
/// and idle connections must not lock newcomers out.
@Suite struct ControlFairnessTests {
  @Test func urgentEventsComeBeforeClientEventsInARound() throws {
    let loop = try EventLoop()
    let (clientR, clientW) = try FileDescriptor.pipe()
    let (urgentR, urgentW) = try FileDescriptor.pipe()
    var order: [String] = []
    try loop.register(clientR, interest: .readable, priority: .client) { _ in
      order.append("client")
      loop.unregister(clientR)
    }
    try loop.register(urgentR, interest: .readable) { _ in
      order.append("urgent")
      loop.unregister(urgentR)
    }
    _ = write(clientW.rawValue, "c", 1)
    _ = write(urgentW.rawValue, "u", 1)
    try loop.runOnce(timeout: .seconds(5))
    #expect(order == ["urgent", "client"])
  }

  @Test func aPipeIsServedWithinTwoRoundsWhileAHundredClientsFlood() throws {
    let fixture = try ControlFixture { _ in
      busy(for: .milliseconds(1))
      return "ok"
    }
    let (r, w) = try FileDescriptor.pipe()
    var urgentSeen = false
    try fixture.loop.register(r, interest: .readable) { _ in
      var b = [UInt8](repeating: 0, count: 16)
      _ = read(r.rawValue, &b, 16)
      urgentSeen = true
    }
    let flood = String(repeating: "{\"cmd\":\"next\",\"count\":100}\n", count: 200)
    var clients: [ControlTestClient] = []
    for _ in 0..<100 {
      let c = try fixture.connect()
      c.send(flood)
      clients.append(c)
    }
    var answered: Int { clients.reduce(0) { $0 + $1.poll().count } }
    #expect(try fixture.turn { answered >= 50 })
    _ = write(w.rawValue, "x", 1)
    // Judged in loop rounds, not by a clock (bench/flood measures the time).
    var rounds = 0
    while !urgentSeen && rounds < 10 {
      try fixture.loop.runOnce(timeout: .seconds(1))
      rounds += 1
    }
    #expect(urgentSeen && rounds <= 2, "handled after \(rounds) rounds")
  }

  /// Issue 24 item 5: the loop may run SCHED_FIFO, where endless client work would hold a
  /// CPU until real-time throttling stopped it (press and firing with it). Client work gets
  /// its share of each window and the loop sleeps for the rest, whatever is queued.
  @Test func clientWorkTakesAtMostItsShareAndTheLoopSleepsTheRest() throws {
    let loop = try EventLoop()
    loop.clientShare = (budget: .milliseconds(20), window: .milliseconds(100))
    var items = 0
    func again() {
      busy(for: .milliseconds(1))
      items += 1
      loop.queueClientWork(again)
    }
    for _ in 0..<4 { loop.queueClientWork(again) }
    let (r, w) = try FileDescriptor.pipe()
    var urgent = 0
    try loop.register(r, interest: .readable) { _ in
      var b = [UInt8](repeating: 0, count: 16)
      _ = read(r.rawValue, &b, 16)
      urgent += 1
    }
    // An urgent source every 5 ms, from another thread (this one's CPU time is measured).
    let writer = w.rawValue
    let ticker = Thread {
      for _ in 0..<120 {
        _ = write(writer, "x", 1)
        usleep(5000)
      }
    }
    ticker.start()
    let wallStart = ContinuousClock.now
    let cpuStart = Self.threadCPU()
    while ContinuousClock.now - wallStart < .milliseconds(600) {
      try loop.runOnce(timeout: .seconds(1))
    }
    let wall = ContinuousClock.now - wallStart
    let cpu = Self.threadCPU() - cpuStart
    // 20 ms of 100 (and one 1 ms item over it per turn): far below a whole CPU, however
    // busy the machine (a slower machine only lowers the share).
    #expect(cpu < wall * 0.4, "client work took \(cpu) of \(wall)")
    #expect(items > 0 && urgent > 0, "\(items) client items, \(urgent) urgent")
    while !ticker.isFinished { usleep(1000) }
  }

  static func threadCPU() -> Duration {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
  }

  @Test func aSecondClientIsAnsweredWhileTheFirstFloods() throws {
    var order: [String] = []
    let fixture = try ControlFixture { line in
      busy(for: .milliseconds(1))
      order.append(line)
      return line
    }
    let flooder = try fixture.connect()
    flooder.send(String(repeating: "a\n", count: 2000))
    #expect(try fixture.turn { order.count >= 5 })
    let before = order.count
    let other = try fixture.connect()
    other.send("b\n")
    #expect(try fixture.turn { other.poll() == ["b"] })
    let flooderServedMeanwhile = order.count - before - 1
    #expect(flooderServedMeanwhile < 20, "\(flooderServedMeanwhile) flood requests went first")
    // 2,000 ms of handler time at 250 ms a second: about 8 s on an idle machine, so
    // allow for a loaded one.
    #expect(try fixture.turn(upTo: .seconds(90)) { flooder.poll().count == 2000 })
  }

  /// Issue 24: 200 connections pipelining 2 ms requests keep a round of the backlog 400 ms
  /// long; a fresh connection's request (an operator's `status` or `stop`) is answered
  /// ahead of it, again and again. Judged by order, not by a clock: how many flood requests
  /// were served between the probe's arrival and its answer (a round would be 200). The
  /// time it takes on a busy machine is measured by bench/flood (docs/performance.md).
  @Test func aFreshClientIsAnsweredAheadOf200PipelinedBacklogs() throws {
    var order: [String] = []
    let fixture = try ControlFixture { line in
      if line != "status" { busy(for: .milliseconds(2)) }
      order.append(line)
      return line
    }
    let flood = String(repeating: "next\n", count: 1000)
    var flooders: [ControlTestClient] = []
    for i in 0..<200 {  // accepted as they come (the listen backlog is shorter)
      flooders.append(try fixture.connect())
      #expect(try fixture.turn { fixture.server.clientCount == i + 1 })
    }
    for c in flooders { c.send(flood) }
    #expect(try fixture.turn(upTo: .seconds(120)) { order.count >= 400 }, "the flood is served")
    for _ in 0..<5 {
      let probe = try fixture.connect()
      probe.send("status\n")
      let before = order.count
      #expect(try fixture.turn(upTo: .seconds(60)) { probe.poll() == ["status"] })
      guard let answered = order[before...].firstIndex(of: "status") else {
        Issue.record("the probe's request was not handled")
        return
      }
      let servedFirst = answered - before
      #expect(servedFirst < 20, "\(servedFirst) flood requests were served before the probe's")
      order.removeAll()
    }
  }

  @Test func idleClientsAreClosedAndTheTimerStopsWithThem() throws {
    let limits = ControlServer.Limits(idleTimeout: .milliseconds(300))
    let fixture = try ControlFixture(limits: limits) { $0 }
    let idle = try fixture.connect()
    let active = try fixture.connect()
    let partial = try fixture.connect()
    partial.send("{\"cmd\":")  // a request never finished counts as idle
    var sent = 0
    var lastSend = ContinuousClock.now
    let end = ContinuousClock.now + .milliseconds(900)
    // The active one sends a request every 100 ms; the idle one nothing.
    #expect(
      try fixture.turn {
        if active.poll().count == sent && ContinuousClock.now - lastSend > .milliseconds(100) {
          active.send("ping\n")
          sent += 1
          lastSend = .now
        }
        idle.poll()
        partial.poll()
        return ContinuousClock.now > end
      })
    #expect(idle.closed && idle.lines == ["idle"])
    #expect(partial.closed && partial.lines == ["idle"])
    #expect(!active.closed && fixture.server.clientCount == 1)
    #expect(try fixture.turn { active.poll().last == "idle" && active.closed })
    #expect(fixture.server.clientCount == 0)
    // Nobody connected: nothing wakes the loop.
    #expect(try fixture.loop.runOnce(timeout: .milliseconds(600)) == 0)
  }

  @Test func atTheCapTheOldestIdleClientMakesRoom() throws {
    let fixture = try ControlFixture(limits: .init(maxClients: 2)) { $0 }
    let oldest = try fixture.connect()
    #expect(try fixture.turn { fixture.server.clientCount == 1 })
    let recent = try fixture.connect()
    recent.send("x\n")
    #expect(try fixture.turn { recent.poll() == ["x"] })
    let newcomer = try fixture.connect()
    newcomer.send("y\n")
    #expect(try fixture.turn { newcomer.poll() == ["y"] })
    #expect(try fixture.turn { oldest.poll() == ["evicted"] && oldest.closed })
    recent.poll()
    #expect(!recent.closed && fixture.server.clientCount == 2)
  }

  @Test func aClientOverItsHandlerBudgetWaitsButOthersDoNot() throws {
    let limits = ControlServer.Limits(
      handlerTimePerSecond: .milliseconds(20), handlerTimeBurst: .milliseconds(10))
    let fixture = try ControlFixture(limits: limits) { line in
      busy(for: .milliseconds(5))
      return line
    }
    let greedy = try fixture.connect()
    greedy.send(String(repeating: "g\n", count: 10))
    #expect(try fixture.turn { greedy.poll().count >= 2 })
    let start = ContinuousClock.now
    let other = try fixture.connect()
    other.send("o\n")
    #expect(try fixture.turn { other.poll() == ["o"] })
    // 50 ms of handler time at 20 ms a second, after a 10 ms burst: about 2 s. The other
    // client was answered while the greedy one still waited.
    #expect(greedy.poll().count < 10)
    #expect(try fixture.turn { greedy.poll().count == 10 })
    #expect(ContinuousClock.now - start > .seconds(1))
  }

  @Test func aDeferredReplyHoldsTheConnectionsNextRequestOnly() throws {
    let loop = try EventLoop()
    let dir = InputFixture.tempDirectory()
    defer { InputFixture.removeTree(dir) }
    var held: [(String, ControlResponder)] = []
    let server = try ControlServer(
      listener: try UnixListener(path: dir + "/c.sock"), loop: loop,
      handler: { line, responder in
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("later") {
          held.append((text, responder))
        } else {
          responder.reply(Array(text.utf8))
        }
      },
      lineTooLong: [], tooManyClients: [])
    defer { server.close() }
    func connect() throws -> ControlTestClient {
      let fd = try FileDescriptor.unixSocket(Int32(SOCK_STREAM.rawValue), nonBlocking: true)
      try fd.connect(to: UnixSocketAddress(dir + "/c.sock"))
      return ControlTestClient(fd: fd)
    }
    func turn(until condition: () -> Bool) throws -> Bool {
      let end = ContinuousClock.now + .seconds(10)
      while !condition() && ContinuousClock.now < end {
        try loop.runOnce(timeout: .milliseconds(20))
      }
      return condition()
    }
    let a = try connect()
    a.send("later1\nnow\n")
    let b = try connect()
    b.send("other\n")
    #expect(try turn { held.count == 1 && b.poll() == ["other"] })
    for _ in 0..<5 { try loop.runOnce(timeout: .milliseconds(10)) }
    #expect(a.poll().isEmpty)
    held[0].1.reply(Array("done1".utf8))
    #expect(try turn { a.poll() == ["done1", "now"] })
  }
}
