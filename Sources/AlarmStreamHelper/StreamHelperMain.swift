import AlarmCore
import AlarmPlatform
import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// `alarmclock-stream`: fetches and decodes one radio stream for the service, which never
/// touches the network itself.
///
/// fd 0 carries the request line (`StreamWire.Request`), fd 1 the framed reply: `ready`
/// once the decoder is open, then PCM at real time (the first second at once), `title`
/// and `notice` along the way, and a `problem` as the last frame, after which the process
/// exits with status 0. Under systemd fds 0 and 1 are the connection of
/// `alarmclock-stream.socket` (`Accept=yes`); in a terminal the service spawns it with a
/// socketpair. The client closing (EOF on fd 0, EPIPE on fd 1) ends it at once. Nothing
/// but frames goes to stdout; diagnostics go to stderr.
///
/// Two threads: the decoder (FFmpeg: open, demux, decode, resample into a queue of at
/// most `queueLength`) and the main thread, which paces the queue out (`FrameWriter`).
public enum StreamHelperMain {
  /// The most PCM held ahead of the writer: HLS delivers whole segments at once, and a
  /// file over HTTP decodes faster than real time.
  public static let queueLength = 15

  /// Runs the helper on fds 0 and 1; never returns.
  public static func run() -> Never {
    signal(SIGPIPE, SIG_IGN)
    HelperStart.enterSandbox()
    let request: StreamWire.Request
    switch HelperStart.readRequest() {
    case .closed:
      _exit(0)
    case .bad(let reason):
      HelperLog.write(reason)
      let frame = StreamWire.encode(StreamWire.Message(.problem, text: reason))
      try? FileDescriptor.writeAll(frame, toRaw: FrameWriter.output)
      _exit(0)
    case .request(let r):
      request = r
    }
    HelperLog.write("opening \(StreamURL.redacted(request.url))")
    FFmpegLog.install()
    avformat_network_init()
    let channel: PCMChannel
    do {
      channel = try PCMChannel(
        channels: request.channels, capacity: request.rate * queueLength)
    } catch {
      fail("the stream helper cannot start: \(error)")
    }
    let decoder = StreamDecoder(request: request, channel: channel)
    do {
      // Never joined: the process exits from the writer, wherever the decoder is.
      _ = try NativeThread.start("decoder") { decoder.run() }
    } catch {
      fail("the stream helper cannot start its decoder: \(error)")
    }
    var writer = FrameWriter(request: request, channel: channel)
    writer.run()
  }

  private static func fail(_ reason: String) -> Never {
    HelperLog.write(reason)
    try? FileDescriptor.writeAll(
      StreamWire.encode(StreamWire.Message(.problem, text: reason)), toRaw: FrameWriter.output)
    _exit(0)
  }
}
