import AlarmCore
import AlarmPlatform

/// What the service says, in `[voice]`: the time and the next alarm on a press, and the
/// sentences of an announcing ring.
extension Service {
  /// The language spoken: `[voice] language`, else the locale's.
  var voiceLocale: DisplayLocale { config.voice.locale(environment: environment) }

  /// Says `text` outside a ring in `[voice]` on the configured devices, after the reminder
  /// chime when `chime` (`SpeechCoordinator.say`; false when another utterance is going).
  @discardableResult
  func say(_ text: String, chime: Bool = false, then: (() -> Void)? = nil) -> Bool {
    speech.say(
      text, chime: chime, locale: voiceLocale, voice: config.voice,
      devices: config.audio.devices, then: then)
  }

  /// What an announcing ring of `alarm` says: "It's six forty-five. Work." at each moment.
  func announcement(_ alarm: Alarm) -> Announcer.Ring {
    let voice = config.voice
    let locale = voiceLocale
    let label = AlarmText(locale).label(alarm)
    let zone = self.zone
    return Announcer.Ring(
      alarmID: alarm.id,
      text: { at in SpokenText(locale).announcement(time: zone.local(at: at).time, label: label) },
      locale: locale, voice: voice, ramp: alarm.ramp, every: alarm.announceEvery)
  }

  /// Says the time and the next alarm (the next firing `status` reports), in `[voice]`.
  func sayTime(now: Instant) {
    let locale = voiceLocale
    let next = engine.upcoming(after: now, count: 1).first.flatMap { f in
      engine.alarms[f.alarmID].map { (at: f.at, label: AlarmText(locale).label($0)) }
    }
    say(SpokenText(locale).timeAndNext(at: now, next: next, zone: zone))
  }
}
