import AlarmCore
import AlarmFiles
import AlarmPlatform

/// An ALSA call on a sound device (PCM or mixer) failed.
public struct AudioDeviceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The ALSA device name, e.g. `default`, `plughw:1,0`, `pulse`.
  public var device: String
  /// The ALSA function that failed, e.g. `snd_pcm_open`.
  public var call: String
  /// The negative errno ALSA returned.
  public var code: Int32
  /// ALSA's text for `code` (`snd_strerror`), or a reason of ours.
  public var message: String

  public init(device: String, call: String, code: Int32, message: String) {
    self.device = device
    self.call = call
    self.code = code
    self.message = message
  }

  public var description: String { "audio device '\(device)': \(call) failed: \(message)" }
}
