import AlarmCore
import AlarmPlatform
import Foundation
import Glibc
import Testing

@Suite struct SystemLoggerTests {
  /// Logs through a real pipe and returns what came out of it.
  private func capture(
    environment: (FileDescriptor) throws -> Environment, minimumLevel: LogLevel = .debug,
    _ body: (Logger) -> Void
  ) throws -> String {
    let (r, w) = try FileDescriptor.pipe()
    let logger = Logger(fd: w.rawValue, environment: try environment(w), minimumLevel: minimumLevel)
    // Drained on another thread: more than a pipe buffer (64 KiB) of lines would block.
    let collected = Locked<[UInt8]>([])
    let drained = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      while case let chunk? = try? r.readSome(maxCount: 4096), !chunk.isEmpty {
        collected.withLock { $0 += chunk }
      }
      drained.signal()
    }
    body(logger)
    w.close()
    drained.wait()
    return String(decoding: collected.withLock { $0 }, as: UTF8.self)
  }

  private func journalStream(of fd: FileDescriptor) throws -> Environment {
    let st = try fd.status()
    return Environment(["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"])
  }

  @Test func plainLinesWithoutJournal() throws {
    let out = try capture(environment: { _ in Environment() }) { log in
      log.error("boom")
      log.info("started")
      log.debug("detail")
    }
    #expect(out == "error: boom\ninfo: started\ndebug: detail\n")
  }

  @Test func priorityPrefixesUnderJournald() throws {
    let out = try capture(environment: journalStream) { log in
      #expect(log.usesPriorityPrefixes)
      log.error("e")
      log.warning("w")
      log.notice("n")
      log.info("i")
      log.debug("d")
      log.warning("two\nlines")
    }
    #expect(out == "<3>e\n<4>w\n<5>n\n<6>i\n<7>d\n<4>two\n<4>lines\n")
  }

  @Test func journalStreamOfAnotherFileIsIgnored() throws {
    let out = try capture(environment: { _ in Environment(["JOURNAL_STREAM": "1:2"]) }) { log in
      #expect(!log.usesPriorityPrefixes)
      log.notice("redirected")
    }
    #expect(out == "notice: redirected\n")
    let garbage = try capture(environment: { _ in Environment(["JOURNAL_STREAM": "x"]) }) {
      $0.info("ok")
    }
    #expect(garbage == "info: ok\n")
  }

  @Test func levelsBelowTheMinimumAreDropped() throws {
    let out = try capture(environment: { _ in Environment() }, minimumLevel: .notice) { log in
      log.info("hidden")
      log.debug("hidden")
      log.notice("shown")
      log.error("shown too")
    }
    #expect(out == "notice: shown\nerror: shown too\n")
    #expect(LogLevel(name: "warning") == .warning)
    #expect(LogLevel(name: "loud") == nil)
  }

  @Test func concurrentLinesDoNotInterleave() throws {
    let out = try capture(environment: journalStream) { log in
      let text = String(repeating: "x", count: 200)
      DispatchQueue.concurrentPerform(iterations: 8) { i in
        for _ in 0..<50 { log.info("\(i) \(text)") }
      }
    }
    let lines = out.split(separator: "\n")
    #expect(lines.count == 400)
    for line in lines {
      #expect(line.hasPrefix("<6>") && line.hasSuffix(String(repeating: "x", count: 200)))
    }
  }
}
