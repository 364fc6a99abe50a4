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
    try keepAlive.run()
    try parec.run()
    let t = Thread { [self] in watch() }
    watcher = t
    t.start()
    let start = Date()
    while frames() < 4800 {  // 100 ms recorded: the pipeline is flowing
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

  /// The recorded frame index for a CLOCK_REALTIME instant in seconds.
  public func frameIndex(realtime: Double) -> Int {
    Int(((realtime - lock.withLock { origin }) * SinkRecorder.rate).rounded())
  }

  /// Waits `seconds` more of recording.
  public func record(seconds: Double) { usleep(UInt32(seconds * 1_000_000)) }

  /// Stops and returns the left channel as floats.
  public func finish() -> [Float] {
    lock.withLock { watching = false }
    usleep(200_000)  // let the last blocks arrive
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
