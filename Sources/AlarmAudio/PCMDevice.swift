import AlarmCore
import AlarmFiles
import AlarmPlatform
import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// One open ALSA playback PCM, non-blocking, interleaved. Parameters are negotiated
/// like `snd_pcm_set_params` with resampling allowed, so `default`, `plughw:` and
/// `pulse` convert rate, format and channels for us; on a bare `hw:` device the nearest
/// rate and channel count are taken. Samples go in as float and are converted to the
/// negotiated format (float, S32 or S16).
final class PCMDevice {
  enum Format { case float32, s32, s16 }

  let name: String
  let handle: OpaquePointer
  let rate: Int
  let channels: Int
  let format: Format
  let periodFrames: Int
  let bufferFrames: Int
  private var converted = PinnedBuffer<Int32>(count: 0)
  private var isClosed = false
  private var converted16 = PinnedBuffer<Int16>(count: 0)

  /// Opens `name` for `rate` Hz and `channels` channels with about `bufferTime` of buffer.
  init(name: String, rate: Int, channels: Int, bufferTime: Duration = .milliseconds(500))
    throws(AudioDeviceError)
  {
    self.name = name
    var pcm: OpaquePointer?
    var err = snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
    guard err >= 0, let pcm else {
      throw AudioDeviceError(device: name, call: "snd_pcm_open", code: err, message: alsaText(err))
    }
    handle = pcm
    var hw: OpaquePointer?
    snd_pcm_hw_params_malloc(&hw)
    defer { snd_pcm_hw_params_free(hw) }
    var failed: (String, Int32)? = nil
    func check(_ call: String, _ r: Int32) {
      if r < 0 && failed == nil { failed = (call, r) }
    }
    check("snd_pcm_hw_params_any", snd_pcm_hw_params_any(pcm, hw))
    check("snd_pcm_hw_params_set_rate_resample", snd_pcm_hw_params_set_rate_resample(pcm, hw, 1))
    check(
      "snd_pcm_hw_params_set_access",
      snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED))
    // S16 first: it is what most DACs and sound servers take natively, and it halves the
    // bytes moved per frame (cheaper than float on a Pi); then S32, then float.
    var chosen: Format = .s16
    if snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE) == 0 {
      chosen = .s16
    } else if snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S32_LE) == 0 {
      chosen = .s32
    } else {
      chosen = .float32
      check(
        "snd_pcm_hw_params_set_format",
        snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_FLOAT_LE))
    }
    var ch = UInt32(channels)
    check("snd_pcm_hw_params_set_channels_near", snd_pcm_hw_params_set_channels_near(pcm, hw, &ch))
    var r = UInt32(rate)
    var dir: Int32 = 0
    check("snd_pcm_hw_params_set_rate_near", snd_pcm_hw_params_set_rate_near(pcm, hw, &r, &dir))
    var bufferUS = UInt32(
      bufferTime.components.seconds * 1_000_000
        + bufferTime.components.attoseconds / 1_000_000_000_000)
    var periodUS = bufferUS / 4
    check(
      "snd_pcm_hw_params_set_buffer_time_near",
      snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferUS, &dir))
    check(
      "snd_pcm_hw_params_set_period_time_near",
      snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodUS, &dir))
    if failed == nil { check("snd_pcm_hw_params", snd_pcm_hw_params(pcm, hw)) }
    var period: snd_pcm_uframes_t = 0
    var buffer: snd_pcm_uframes_t = 0
    snd_pcm_hw_params_get_period_size(hw, &period, &dir)
    snd_pcm_hw_params_get_buffer_size(hw, &buffer)
    if failed == nil {
      var sw: OpaquePointer?
      snd_pcm_sw_params_malloc(&sw)
      defer { snd_pcm_sw_params_free(sw) }
      check("snd_pcm_sw_params_current", snd_pcm_sw_params_current(pcm, sw))
      // Start on the first write: the first frame reaches the device at once.
      check(
        "snd_pcm_sw_params_set_start_threshold", snd_pcm_sw_params_set_start_threshold(pcm, sw, 1))
      check("snd_pcm_sw_params_set_avail_min", snd_pcm_sw_params_set_avail_min(pcm, sw, period))
      check("snd_pcm_sw_params", snd_pcm_sw_params(pcm, sw))
    }
    if let (call, code) = failed {
      snd_pcm_close(pcm)
      throw AudioDeviceError(device: name, call: call, code: code, message: alsaText(code))
    }
    err = 0
    self.rate = Int(r)
    self.channels = Int(ch)
    self.format = chosen
    self.periodFrames = max(64, Int(period))
    self.bufferFrames = max(self.periodFrames, Int(buffer))
  }

  deinit { close() }

  /// Closes the PCM now rather than when the object goes. Nothing else may be called
  /// after it.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    snd_pcm_close(handle)
  }

  /// The descriptors to poll for "room to write".
  func pollDescriptors() -> [pollfd] {
    let n = snd_pcm_poll_descriptors_count(handle)
    guard n > 0 else { return [] }
    var fds = [pollfd](repeating: pollfd(), count: Int(n))
    let got = snd_pcm_poll_descriptors(handle, &fds, UInt32(n))
    return Array(fds.prefix(Int(max(0, got))))
  }

  /// ALSA's reading of what the polled descriptors mean (POLLOUT, POLLERR).
  func revents(_ fds: inout [pollfd]) -> UInt16 {
    var out: UInt16 = 0
    snd_pcm_poll_descriptors_revents(handle, &fds, UInt32(fds.count), &out)
    return out
  }

  /// Writes interleaved float frames (`channels` per frame); returns frames written
  /// or a negative errno (-EAGAIN when full).
  func write(_ samples: UnsafePointer<Float>, frames: Int) -> Int {
    switch format {
    case .float32:
      return Int(snd_pcm_writei(handle, samples, snd_pcm_uframes_t(frames)))
    case .s32:
      let count = frames * channels
      if converted.count < count { converted = PinnedBuffer(count: count) }
      for i in 0..<count {
        converted.base[i] = Int32(
          clamping: Int64(Double(max(-1, min(1, samples[i]))) * 2_147_483_647))
      }
      return Int(snd_pcm_writei(handle, converted.base, snd_pcm_uframes_t(frames)))
    case .s16:
      let count = frames * channels
      if converted16.count < count { converted16 = PinnedBuffer(count: count) }
      let out = converted16.base
      for i in 0..<count {
        let v = samples[i] * 32767
        out[i] = Int16(max(-32767, min(32767, v)))
      }
      return Int(snd_pcm_writei(handle, out, snd_pcm_uframes_t(frames)))
    }
  }

  /// Recovers from an underrun (-EPIPE) or a suspend (-ESTRPIPE); returns 0 or the error.
  func recover(_ error: Int) -> Int32 { snd_pcm_recover(handle, Int32(error), 1) }

  /// Frames queued but not yet heard (0 when it cannot tell).
  func delay() -> Int {
    var d: snd_pcm_sframes_t = 0
    return snd_pcm_delay(handle, &d) == 0 ? max(0, Int(d)) : 0
  }

  var state: snd_pcm_state_t { snd_pcm_state(handle) }
}

/// ALSA's message for a negative error code.
func alsaText<T: BinaryInteger>(_ code: T) -> String {
  String(cString: snd_strerror(Int32(clamping: code)))
}
