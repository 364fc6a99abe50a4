import CFFmpeg

/// Converts decoded frames, whatever their sample format, rate and channel layout, to
/// interleaved S16 at the requested rate and channel count (libswresample: downmix or
/// upmix as needed). A stream that changes its format midway gets a new converter.
final class Resampler {
  /// Frames per second out.
  let rate: Int32
  /// Channels out (1 or 2).
  let channels: Int32
  private var context: OpaquePointer?
  /// Holds the format, rate and layout `context` was made for (no samples).
  private let input: UnsafeMutablePointer<AVFrame>
  private var output: UnsafeMutablePointer<Int16>
  private var outputFrames = 0

  /// A converter to `rate` and `channels`.
  init(rate: Int, channels: Int) {
    self.rate = Int32(rate)
    self.channels = Int32(channels)
    // av_frame_alloc fails only without memory, where nothing else would work either.
    input = av_frame_alloc()!
    output = .allocate(capacity: 1)
  }

  deinit {
    swr_free(&context)
    var frame: UnsafeMutablePointer<AVFrame>? = input
    av_frame_free(&frame)
    output.deallocate()
  }

  /// `frame`'s samples converted; valid until the next call.
  func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(StreamFailure)
    -> UnsafeBufferPointer<Int16>
  {
    if context == nil || cff_frame_same_input(frame, input) == 0 {
      var status = cff_swr_open(&context, channels, rate, frame)
      if status >= 0 { status = cff_frame_copy_input(input, frame) }
      if status < 0 {
        throw StreamFailure(
          "the stream's audio (\(frame.pointee.sample_rate) Hz, "
            + "\(frame.pointee.ch_layout.nb_channels) channels) cannot be converted: "
            + StreamFailure.message(status))
      }
    }
    let room = Int(swr_get_out_samples(context, frame.pointee.nb_samples)) + 32
    if room > outputFrames {
      output.deallocate()
      output = .allocate(capacity: room * Int(channels))
      outputFrames = room
    }
    let n = cff_swr_convert(context, output, Int32(outputFrames), frame)
    if n < 0 {
      throw StreamFailure("the stream's audio cannot be converted: " + StreamFailure.message(n))
    }
    return UnsafeBufferPointer(start: output, count: Int(n) * Int(channels))
  }
}
