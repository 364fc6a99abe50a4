import AlarmPlatform
import Foundation
import Glibc
import Testing

@Suite struct SystemFileDescriptorTests {
  @Test func closesExactlyOnceAndIsIdempotent() throws {
    let (r, w) = try FileDescriptor.pipe()
    let raw = r.rawValue
    r.close()
    #expect(r.rawValue == -1)
    #expect(!r.isOpen)
    // The number is free again: a new descriptor may take it, and a second close must
    // not close that new one.
    let (r2, w2) = try FileDescriptor.pipe()
    r.close()
    #expect(fcntl(r2.rawValue, F_GETFD) != -1)
    #expect(fcntl(raw, F_GETFD) == -1 || raw == r2.rawValue || raw == w2.rawValue)
    w.close()
    w.close()
  }

  @Test func deinitCloses() throws {
    var raw: Int32 = -1
    do {
      let (r, w) = try FileDescriptor.pipe()
      raw = r.rawValue
      _ = w
    }
    #expect(fcntl(raw, F_GETFD) == -1 && errno == EBADF)
  }

  @Test func descriptorsAreCloseOnExec() throws {
    let (r, w) = try FileDescriptor.pipe()
    #expect(fcntl(r.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(w.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    let file = try FileDescriptor.open("/dev/null", O_RDONLY)
    #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
  }

  @Test func readSomeAndWriteAll() throws {
    let (r, w) = try FileDescriptor.pipe()
    try w.writeAll("hello, ")
    try w.writeAll("world".bytes)
    w.close()
    var got: [UInt8] = []
    while true {
      let chunk = try r.readSome(maxCount: 4)
      if chunk.isEmpty { break }
      #expect(chunk.count <= 4)
      got += chunk
    }
    #expect(String(decoding: got, as: UTF8.self) == "hello, world")
  }

  @Test func writeAllHandlesMoreThanAPipeHolds() throws {
    let (r, w) = try FileDescriptor.pipe()
    let payload = [UInt8](repeating: 0x61, count: 1 << 20)
    let writer = Thread { try? w.writeAll(payload); w.close() }
    writer.start()
    var total = 0
    while true {
      let chunk = try r.readSome(maxCount: 65536)
      if chunk.isEmpty { break }
      total += chunk.count
    }
    #expect(total == payload.count)
  }

  @Test func nonBlockingReadReportsWouldBlock() throws {
    // The write end stays open: with it closed the read would see end of file.
    let (r, w) = try FileDescriptor.pipe(nonBlocking: true)
    defer { w.close() }
    do {
      _ = try r.readSome(maxCount: 10)
      Issue.record("read of an empty non-blocking pipe returned")
    } catch {
      #expect(error.isWouldBlock)
      #expect(error.call.hasPrefix("read(fd "))
    }
  }

  @Test func operationsOnAClosedDescriptorFailWithEBADF() throws {
    let (r, _) = try FileDescriptor.pipe()
    r.close()
    #expect(throws: SystemError.self) { try r.readSome(maxCount: 1) }
  }
}
