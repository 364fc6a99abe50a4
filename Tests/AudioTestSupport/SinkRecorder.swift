import Foundation

/// Records the test sink's monitor with `parec` (s16le, 48 kHz, stereo) while
/// `pacat --raw /dev/zero` keeps the sink busy (an idle sink sends nothing).
///
/// Maps wall time to recorded samples: while recording, a thread samples the file size
/// every millisecond; the earliest `now - frames / 48000` seen is the CLOCK_REALTIME
/// instant of frame 0 (late by at most the delivery latency, a few ms).
public final class SinkRecorder: @unchecked Sendable {
  public static let rate = 48_000.0
  private let parec: Process
  private let keepAlive: Process
  private let path: String
  private let lock = NSLock()
  private var origin = Double.infinity  // realtime seconds of frame 0
  private var watching = true
  private var watcher: Thread?

  /// Starts recording `sink`'s monitor and returns once data flows.
  public init(directory: String, sink: String = PulseTestServer.sink) throws {
    path = directory + "/monitor.raw"
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    keepAlive = Process()
    keepAlive.executableURL = URL(fileURLWithPath: "/usr/bin/pacat")
    keepAlive.arguments = [
      "--raw", "-d", sink, "--format=s16le", "--rate=48000", "--channels=2", "--latency-msec=20",
      "/dev/zero",
    ]
    parec = Process()
    parec.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
    parec.arguments = [
      "-d", sink + ".monitor", "--format=s16le", "--rate=48000", "--channels=2", "--raw",
      "--latency-msec=5",
    ]
    parec.standardOutput = FileHandle(forWritingAtPath: path)
    // Not the test runner's output: were the test process killed, recorders left running
    // would hold `swift test`'s pipe open and it would wait for them for ever.
    parec.standardError = FileHandle.nullDevice
    keepAlive.standardOutput = FileHandle.nullDevice
    keepAlive.standardError = FileHandle.nullDevice
    try keepAlive.run()
    try parec.run()
    let t = Thread { [self] in watch() }
    watcher = t
    t.start()
    let start = Date()
    // 100 ms recorded (the pipeline is flowing), and the watcher has seen it: on a busy
    // machine its thread may not have run yet, and frame 0 has no instant before it has.
    while frames() < 4800 || !lock.withLock({ origin.isFinite }) {
      if Date().timeIntervalSince(start) > 10 {
        kill(parec.processIdentifier, SIGKILL)
        kill(keepAlive.processIdentifier, SIGKILL)
        throw ToolError(argv: parec.arguments ?? [], status: -1, stderr: "no data after 10 s")
      }
      usleep(5000)
    }
  }

  deinit {  // a test that failed before finish() must not leave the recorders running
    if parec.isRunning { kill(parec.processIdentifier, SIGKILL) }
    if keepAlive.isRunning { kill(keepAlive.processIdentifier, SIGKILL) }
    lock.withLock { watching = false }
  }

  private func frames() -> Int {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return size / 4
  }

  private func watch() {
    while lock.withLock({ watching }) {
      let n = frames()
      let now = realtimeNow()
      if n > 0 {
        let o = now - Double(n) / SinkRecorder.rate
        lock.withLock { origin = min(origin, o) }
      }
      usleep(1000)
    }
  }

  /// The recorded frame index for a CLOCK_REALTIME instant in seconds (`Int.max` while
  /// frame 0's instant is unknown: nothing is covered yet).
  public func frameIndex(realtime: Double) -> Int {
    let index = ((realtime - lock.withLock { origin }) * SinkRecorder.rate).rounded()
    guard index.isFinite, index < Double(Int.max), index > Double(Int.min) else { return .max }
    return Int(index)
  }

  /// Whether the recording so far reaches the CLOCK_REALTIME instant `realtime`.
  public func covers(realtime: Double) -> Bool { frames() >= frameIndex(realtime: realtime) }

  /// Waits until the recording reaches the CLOCK_REALTIME instant `realtime` (polling its
  /// length), at most `timeout` seconds past that instant; false when it never does (a
  /// stalled recorder on a busy machine), with the shortfall written to standard error.
  @discardableResult
  public func waitUntilRecorded(through realtime: Double, timeout: Double = 10) -> Bool {
    let deadline = max(realtime, realtimeNow()) + timeout
    while !covers(realtime: realtime) {
      if realtimeNow() > deadline {
        let short = Double(frameIndex(realtime: realtime) - frames()) / SinkRecorder.rate
        FileHandle.standardError.write(
          Data(
            "SinkRecorder: the recording is still \(short) s short of the instant asked \(timeout) s after it\n"
              .utf8))
        return false
      }
      usleep(2000)
    }
    return true
  }

  /// Records `seconds` more: waits until the recording reaches that far past now.
  public func record(seconds: Double) { waitUntilRecorded(through: realtimeNow() + seconds) }

  /// Stops and returns the left channel as floats, once the recording reaches `realtime`
  /// (by default 200 ms past the call, for what was written just before it to pass the
  /// sound server): a window judged afterwards is never cut short by blocks still on their
  /// way. A test whose windows end later than that passes their end.
  public func finish(through realtime: Double? = nil, timeout: Double = 10) -> [Float] {
    waitUntilRecorded(through: realtime ?? realtimeNow() + 0.2, timeout: timeout)
    lock.withLock { watching = false }
    // SIGKILL: the test process may hand its children a mask that blocks SIGTERM.
    kill(parec.processIdentifier, SIGKILL)
    kill(keepAlive.processIdentifier, SIGKILL)
    parec.waitUntilExit()
    keepAlive.waitUntilExit()
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    var out = [Float](repeating: 0, count: data.count / 4)
    data.withUnsafeBytes { raw in
      let s = raw.bindMemory(to: Int16.self)
      for i in 0..<out.count { out[i] = Float(Int16(littleEndian: s[2 * i])) / 32768 }
    }
    return out
  }
}

/// CLOCK_REALTIME in seconds.
public func realtimeNow() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_REALTIME, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
