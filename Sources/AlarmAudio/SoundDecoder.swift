import AlarmCore
import AlarmFiles
import AlarmPlatform
import CSndFile

#if canImport(Glibc)
  import Glibc
#endif

/// Streams a sound file through libsndfile, a block at a time (never the whole file in
/// memory). The format is found from the content (`sf_open` with format 0), so a WAV
/// named `.mp3` still plays and a text file named `.mp3` is `notAudio`.
///
/// Handles what libsndfile handles: WAV (8/16/24/32-bit integer, 32/64-bit float,
/// WAVE_FORMAT_EXTENSIBLE, any channel count and rate), FLAC, Ogg Vorbis, Opus, MP3
/// (through libmpg123, with ID3v2 tags, VBR, MPEG-2/2.5).
public final class SoundDecoder: AudioSource {
  /// The file this decoder reads.
  public let path: String
  /// Frames per second of the decoded stream.
  public let sampleRate: Int
  /// Interleaved channels per frame.
  public let channels: Int
  /// Frames in the file as the header states them (an estimate for some MP3s).
  public let frameCount: Int64
  private var file: OpaquePointer
  /// Ours: libsndfile is told not to close it (close_desc 0); closed after `sf_close`.
  private var descriptor: FileDescriptor

  /// Opens `path`; throws a `SoundError` saying why it cannot be decoded.
  public init(path: String) throws(SoundError) {
    self.path = path
    var info = SF_INFO()
    (file, descriptor) = try SoundDecoder.open(path, &info)
    sampleRate = Int(info.samplerate)
    channels = Int(info.channels)
    frameCount = Int64(info.frames)
  }

  deinit {
    sf_close(file)
    descriptor.close()
  }

  /// Reads up to `frames` interleaved frames as floats in [-1, 1]; 0 at the end.
  /// A decode error (damaged data) throws `.truncated`.
  public func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(SoundError)
    -> Int
  {
    let n = sf_readf_float(file, buffer, sf_count_t(frames))
    if n < 0 || (n < frames && sf_error(file) != 0) {
      let why = String(cString: sf_strerror(file))
      throw SoundError(file: path, reason: .truncated(why))
    }
    return Int(n)
  }

  /// Back to the first frame. Seeks when the format can; otherwise reopens the file.
  public func rewind() throws(SoundError) {
    if sf_seek(file, 0, SEEK_SET) == 0 { return }
    var info = SF_INFO()
    let (reopened, newDescriptor) = try SoundDecoder.open(path, &info)
    guard Int(info.samplerate) == sampleRate, Int(info.channels) == channels else {
      sf_close(reopened)
      throw SoundError(file: path, reason: .truncated("the file changed while playing"))
    }
    sf_close(file)
    descriptor.close()
    (file, descriptor) = (reopened, newDescriptor)
  }

  /// Opens and checks the file. On every throw the descriptor closes with its owner.
  private static func open(_ path: String, _ info: inout SF_INFO) throws(SoundError)
    -> (OpaquePointer, FileDescriptor)
  {
    let descriptor: FileDescriptor
    let st: stat
    do {
      // Non-blocking: a FIFO named as a sound must not hang the open (it is refused below).
      descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
      st = try descriptor.status()
    } catch {
      if error.errno == ENOENT || error.errno == ENOTDIR {
        throw SoundError(file: path, reason: .missing)
      }
      throw SoundError(file: path, reason: .unreadable(SystemError.message(for: error.errno)))
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      throw SoundError(file: path, reason: .notAFile)
    }
    guard st.st_size > 0 else { throw SoundError(file: path, reason: .zeroLength) }
    info = SF_INFO()  // format 0: detect from the content
    guard let handle = sf_open_fd(descriptor.rawValue, Int32(SFM_READ), &info, 0) else {
      let why = String(cString: sf_strerror(nil))
      throw SoundError(file: path, reason: .notAudio(why))
    }
    guard info.channels >= 1, info.channels <= 64, info.samplerate >= 1000,
      info.samplerate <= 768_000
    else {
      sf_close(handle)
      let why = "\(info.channels) channels at \(info.samplerate) Hz"
      throw SoundError(file: path, reason: .notAudio(why))
    }
    guard info.frames > 0 else {
      sf_close(handle)
      throw SoundError(file: path, reason: .truncated("no audio frames"))
    }
    return (handle, descriptor)
  }
}
