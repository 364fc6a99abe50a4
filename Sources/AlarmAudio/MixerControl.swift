import AlarmCore
import AlarmFiles
import AlarmPlatform
import CALSA

#if canImport(Glibc)
  import Glibc
#endif

/// An ALSA simple mixer control (e.g. "Master", "PCM") taken over for a ring: unmuted and
/// set to the alarm's level, then put back exactly as it was.
///
/// The level follows the same perceptual law as the software volume: on a control with
/// a dB range wider than 24 dB the percentage maps to `60·log10(v)` dB below the top
/// (alsamixer's "mapped volume", the cubic law in dB); otherwise linearly on the raw range
/// (PulseAudio's "Master" raw scale is already cubic).
final class MixerControl {
  let ctl: String
  let control: String
  private let mixer: OpaquePointer
  private let elem: OpaquePointer
  private var saved: [(channel: snd_mixer_selem_channel_id_t, volume: Int, on: Int32?)] = []

  init(ctl: String, control: String) throws(AudioDeviceError) {
    self.ctl = ctl
    self.control = control
    var m: OpaquePointer?
    var err = snd_mixer_open(&m, 0)
    guard err >= 0, let m else {
      throw AudioDeviceError(device: ctl, call: "snd_mixer_open", code: err, message: alsaText(err))
    }
    func fail(_ call: String, _ code: Int32, _ text: String? = nil) -> AudioDeviceError {
      snd_mixer_close(m)
      return AudioDeviceError(device: ctl, call: call, code: code, message: text ?? alsaText(code))
    }
    err = snd_mixer_attach(m, ctl)
    if err < 0 { throw fail("snd_mixer_attach", err) }
    err = snd_mixer_selem_register(m, nil, nil)
    if err < 0 { throw fail("snd_mixer_selem_register", err) }
    err = snd_mixer_load(m)
    if err < 0 { throw fail("snd_mixer_load", err) }
    var sid: OpaquePointer?
    snd_mixer_selem_id_malloc(&sid)
    defer { snd_mixer_selem_id_free(sid) }
    snd_mixer_selem_id_set_index(sid, 0)
    snd_mixer_selem_id_set_name(sid, control)
    guard let e = snd_mixer_find_selem(m, sid), snd_mixer_selem_has_playback_volume(e) != 0
    else {
      throw fail("snd_mixer_find_selem", -ENOENT, "no playback control '\(control)'")
    }
    mixer = m
    elem = e
  }

  deinit { snd_mixer_close(mixer) }

  /// Remembers the current state, then unmutes and sets `percent`.
  func takeOver(percent: Int) {
    saved = []
    let hasSwitch = snd_mixer_selem_has_playback_switch(elem) != 0
    for raw in 0...Int(SND_MIXER_SCHN_LAST.rawValue) {
      let channel = snd_mixer_selem_channel_id_t(rawValue: Int32(raw))
      guard snd_mixer_selem_has_playback_channel(elem, channel) != 0 else { continue }
      var v: Int = 0
      snd_mixer_selem_get_playback_volume(elem, channel, &v)
      var on: Int32 = 1
      if hasSwitch { snd_mixer_selem_get_playback_switch(elem, channel, &on) }
      saved.append((channel, v, hasSwitch ? on : nil))
    }
    if hasSwitch { snd_mixer_selem_set_playback_switch_all(elem, 1) }
    setLevel(percent)
  }

  /// Sets the level during a takeover (an escalating ring).
  func set(percent: Int) { setLevel(percent) }

  /// Puts back what `takeOver` found.
  func restore() {
    for s in saved {
      snd_mixer_selem_set_playback_volume(elem, s.channel, s.volume)
      if let on = s.on { snd_mixer_selem_set_playback_switch(elem, s.channel, on) }
    }
    saved = []
  }

  /// The current state: whether any channel is unmuted, and the raw volume of the first.
  func read() -> (unmuted: Bool, volume: Int, range: ClosedRange<Int>) {
    var lo = 0
    var hi = 0
    snd_mixer_selem_get_playback_volume_range(elem, &lo, &hi)
    var v = 0
    snd_mixer_selem_get_playback_volume(elem, SND_MIXER_SCHN_FRONT_LEFT, &v)
    var on: Int32 = 1
    if snd_mixer_selem_has_playback_switch(elem) != 0 {
      snd_mixer_selem_get_playback_switch(elem, SND_MIXER_SCHN_FRONT_LEFT, &on)
    }
    return (on != 0, v, lo...max(lo, hi))
  }

  private func setLevel(_ percent: Int) {
    let v = Double(min(100, max(0, percent))) / 100
    var minDB = 0
    var maxDB = 0
    if snd_mixer_selem_get_playback_dB_range(elem, &minDB, &maxDB) == 0, maxDB - minDB > 2400 {
      guard v > 0 else {
        var lo = 0
        var hi = 0
        snd_mixer_selem_get_playback_volume_range(elem, &lo, &hi)
        snd_mixer_selem_set_playback_volume_all(elem, lo)
        return
      }
      let floor = pow(10, Double(minDB - maxDB) / 6000)
      let scaled = v * (1 - floor) + floor
      let db = Int((6000 * log10(scaled)).rounded()) + maxDB
      snd_mixer_selem_set_playback_dB_all(elem, db, 0)
    } else {
      var lo = 0
      var hi = 0
      snd_mixer_selem_get_playback_volume_range(elem, &lo, &hi)
      let raw = lo + Int((Double(hi - lo) * v).rounded())
      snd_mixer_selem_set_playback_volume_all(elem, raw)
    }
  }

  /// The control device for a PCM name: `hw:1,0`/`plughw:1` -> `hw:1`,
  /// `plughw:CARD=Device,DEV=0` -> `hw:CARD=Device`; names without arguments
  /// (`default`, `pulse`) are their own control device.
  static func ctlName(forPCM pcm: String) -> String {
    guard let colon = pcm.firstIndex(of: ":") else { return pcm }
    let args = pcm[pcm.index(after: colon)...]
    let parts = args.split(separator: ",")
    if let card = parts.first(where: { $0.hasPrefix("CARD=") }) { return "hw:\(card)" }
    guard let first = parts.first, !first.contains("=") else { return "default" }
    return "hw:\(first)"
  }
}
