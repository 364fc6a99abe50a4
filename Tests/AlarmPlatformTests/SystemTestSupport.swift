import AlarmPlatform
import AudioTestSupport
import Foundation
import Glibc

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
