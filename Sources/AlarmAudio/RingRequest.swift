import AlarmCore
import AlarmFiles
import AlarmPlatform

/// What to ring and how: everything the playback thread needs, already resolved.
public struct RingRequest: Sendable, Equatable {
  /// The resolved sound file, or nil for the bundled default sound (or a stream).
  public var sound: String?
  /// A stream to ring instead of `sound`, with its fallback (see `StreamSource`).
  public var stream: StreamSound?
  /// Why the alarm's sound could not be resolved (`SoundResolver`): when set, nothing is
  /// opened, the fallback tone rings, and the ringer logs and reports it once
  /// (`.fallbackTone`).
  public var unplayable: SoundError?
  /// Target volume, 0-100 % (perceptual law, see `Gain`).
  public var volume: Int
  /// Fade-in from -60 dB to the target volume over this long; `.zero` for none.
  public var ramp: Duration
  /// Loop until stopped (or `maxDuration`); otherwise play the sound once.
  public var loop: Bool
  /// Stop by itself after this much sound (an alarm's `ring_for`); nil for no limit.
  public var maxDuration: Duration?
  /// ALSA PCM names, primary first, then the fallbacks tried when it cannot be opened.
  public var devices: [String]
  /// A mixer control to unmute and set to `volume` during the ring, or nil.
  public var mixer: MixerSetting?
  /// What happens when the ring goes on for long (`escalate_after`); nil for nothing.
  public var escalation: Escalation?
  /// When every device in `devices` fails, try each sound card present too
  /// (`SoundCards.chain`) before giving up a round.
  public var tryEveryCard = true

  public init(
    sound: String?, volume: Int = 80, ramp: Duration = .seconds(30), loop: Bool = true,
    maxDuration: Duration? = nil, devices: [String] = ["default"], mixer: MixerSetting? = nil
  ) {
    self.sound = sound
    self.volume = volume
    self.ramp = ramp
    self.loop = loop
    self.maxDuration = maxDuration
    self.devices = devices.isEmpty ? ["default"] : devices
    self.mixer = mixer
  }
}

/// A stream sound (`sound = "https://..."`) and what rings whenever it cannot.
public struct StreamSound: Sendable, Equatable {
  /// The stream's http(s) address (its form checked: `StreamURL.problem`).
  public var url: String
  /// The resolved fallback file (`fallback_sound`); nil for the bundled default sound.
  public var fallback: String?
  /// Why `fallback_sound` could not be resolved: the fallback tone is the fallback.
  public var fallbackProblem: SoundError?

  public init(url: String, fallback: String? = nil, fallbackProblem: SoundError? = nil) {
    self.url = url
    self.fallback = fallback
    self.fallbackProblem = fallbackProblem
  }
}

/// A ring that goes on for `after` gets louder, and optionally another sound.
public struct Escalation: Sendable, Equatable {
  /// How long the ring plays before it escalates (counted in frames played).
  public var after: Duration
  /// The volume it rises to, 0-100 %.
  public var volume: Int
  /// How long the rise takes (in the playback loop's gain; the PCM goes on).
  public var ramp: Duration
  /// The resolved file that replaces the sound, or nil to keep the sound.
  public var sound: String?
  /// Why the escalation sound could not be resolved: the fallback tone replaces the sound.
  public var unplayable: SoundError?
  /// A stream that replaces the sound (fetched from the prepare point on).
  public var stream: StreamSound?

  public init(
    after: Duration, volume: Int = 100, ramp: Duration = .seconds(10), sound: String? = nil,
    unplayable: SoundError? = nil
  ) {
    self.after = after
    self.volume = volume
    self.ramp = ramp
    self.sound = sound
    self.unplayable = unplayable
  }
}

/// An ALSA simple mixer control taken over during a ring (`[audio] mixer`).
public struct MixerSetting: Sendable, Equatable {
  /// The control's name, e.g. "Master" or "PCM".
  public var control: String
  /// The control device, e.g. `hw:1`; nil to derive it from the PCM in use
  /// (`plughw:1,0` -> `hw:1`, `pulse` -> `pulse`).
  public var ctl: String?

  public init(control: String, ctl: String? = nil) {
    self.control = control
    self.ctl = ctl
  }
}

/// When a ring starts: an absolute time on the monotonic or the realtime clock.
/// A realtime deadline follows clock changes (NTP setting the clock after boot).
public struct RingDeadline: Sendable, Equatable {
  /// The clock `time` is read on (`.realtime` follows clock changes).
  public var clock: Clock
  /// Time since the clock's epoch.
  public var time: Duration

  public init(clock: Clock, time: Duration) {
    self.clock = clock
    self.time = time
  }

  /// The current time on `clock`.
  public static func now(_ clock: Clock) -> RingDeadline {
    RingDeadline(clock: clock, time: clock.now())
  }

  /// This deadline moved by `d`.
  public static func + (a: RingDeadline, d: Duration) -> RingDeadline {
    RingDeadline(clock: a.clock, time: a.time + d)
  }
}

/// What happened during a ring, reported from the playback thread.
public enum RingerEvent: Sendable, Equatable {
  /// The first frame was handed to ALSA; `realtime` is CLOCK_REALTIME (since the Unix
  /// epoch) read as the write returned.
  case firstFrame(device: String, realtime: Duration)
  /// The sound could not be decoded (at the start or mid-ring): the fallback tone rings.
  case fallbackTone(SoundError)
  /// A device could not be opened, or failed mid-ring.
  case deviceFailed(AudioDeviceError)
  /// Playing on `device`; `isFallback` when it is not the first one requested.
  case deviceOpened(device: String, isFallback: Bool)
  /// A device lost mid-ring is back (the same or another from the list).
  case deviceReopened(device: String)
  /// A full round over every device failed; the ringer keeps retrying with backoff
  /// until `stop()` or `maxDuration`.
  case noDevice(devices: [String])
  /// An audio check (`Ringer.check`, or a `prepare`) tried the devices in order.
  case checked(AudioCheck)
  /// The mixer control could not be taken over (the ring goes on without it).
  case mixerFailed(AudioDeviceError)
  /// The ring reached `Escalation.after`: the volume rises (and the sound changes, to
  /// `sound`; nil when it stays, or the fallback tone when it could not be opened).
  case escalated(sound: String?)
  /// A sentence (`Ringer.announce`) started over the ring; `realtime` as for `firstFrame`
  /// (the frame it starts in was rendered then; it reaches the room a buffer later).
  case announced(realtime: Duration)
  /// A stream sound is playing (from the firing, or again after its fallback).
  case streamPlaying(url: String)
  /// A stream sound could not play (at the firing, or it stopped mid-ring): its fallback
  /// rings, and the stream is retried in the background.
  case streamFallback(url: String, reason: String)
  /// The ring ended.
  case stopped(StopReason)
}

/// Why a ring ended.
public enum StopReason: Sendable, Equatable {
  /// `stop()` was called.
  case requested
  /// A newer `start` took over.
  case replaced
  /// The sound was played once to its end (`loop` false).
  case finished
  /// `maxDuration` elapsed.
  case maxDuration
}

/// What an audio check found: the devices tried in order until one opened.
public struct AudioCheck: Sendable, Equatable {
  /// The devices that could not be opened, in the order tried.
  public var failures: [AudioDeviceError]
  /// The device that opened (and would ring), or nil when none did.
  public var device: String?
  /// The devices tried (the configured ones, then the cards).
  public var tried: [String]

  public init(failures: [AudioDeviceError], device: String?, tried: [String]) {
    self.failures = failures
    self.device = device
    self.tried = tried
  }

  /// Whether a device before the one that opened (or any, when none did) failed.
  public var hasFailures: Bool { !failures.isEmpty }
}
