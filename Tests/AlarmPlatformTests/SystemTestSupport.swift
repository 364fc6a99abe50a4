import AlarmPlatform
import Foundation
import Glibc

/// A fresh directory under /tmp, removed by `remove()`.
struct TempDir {
  let path: String

  init() {
    var template = Array("/tmp/alarmplatform-test-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed: errno \(errno)")
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  func file(_ name: String) -> String { "\(path)/\(name)" }

  func entries() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs an EventLoop on its own thread; `setup` runs on that thread before the loop starts.
final class LoopThread: @unchecked Sendable {
  // Written once on the loop thread before `ready` is signalled, read after: safe.
  private(set) var handle: EventLoopHandle!
  private let ready = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)
  private var setupError: (any Error)?

  init(_ setup: @escaping @Sendable (EventLoop) throws -> Void) throws {
    let thread = Thread { [self] in
      do {
        let loop = try EventLoop()
        try setup(loop)
        handle = loop.handle
        ready.signal()
        try loop.run()
      } catch {
        setupError = error
        ready.signal()
      }
      done.signal()
    }
    thread.start()
    ready.wait()
    if let setupError { throw setupError }
  }

  /// Stops the loop and waits for its thread to finish.
  func stop() {
    handle?.stop()
    done.wait()
  }
}

extension String {
  /// The UTF-8 bytes as an array.
  var bytes: [UInt8] { Array(utf8) }
}
