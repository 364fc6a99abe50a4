import AlarmCore
import AlarmFiles
import AlarmPlatform

/// A stream of interleaved float frames in [-1, 1]: a decoded file or the fallback tone.
/// Used by one thread at a time (the playback thread).
protocol AudioSource: AnyObject {
  var sampleRate: Int { get }
  var channels: Int { get }
  /// Reads up to `frames` frames into `buffer` (room for `frames * channels` floats).
  /// Returns 0 at the end of the stream.
  func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(SoundError) -> Int
  /// Goes back to the first frame (for looping).
  func rewind() throws(SoundError)
}
