import AlarmCore
import AlarmPlatform

/// What the service says, in `[voice]`: the time and the next alarm on a press, and the
/// sentences of an announcing ring.
extension Service {
  /// What an announcing ring of `alarm` says: "It's six forty-five. Work." at each moment.
  func announcement(_ alarm: Alarm) -> Announcer.Ring {
    let voice = config.voice
    let locale = voice.locale(environment: environment)
    let label = AlarmText(locale).label(alarm)
    let zone = self.zone
    return Announcer.Ring(
      alarmID: alarm.id,
      text: { at in SpokenText(locale).announcement(time: zone.local(at: at).time, label: label) },
      locale: locale, voice: voice, ramp: alarm.ramp, every: alarm.announceEvery)
  }

  /// Says the time and the next alarm (the next firing `status` reports), in `[voice]`.
  func sayTime(now: Instant) {
    let voice = config.voice
    let locale = voice.locale(environment: environment)
    let next = engine.upcoming(after: now, count: 1).first.flatMap { f in
      engine.alarms[f.alarmID].map { (at: f.at, label: AlarmText(locale).label($0)) }
    }
    let text = SpokenText(locale).timeAndNext(at: now, next: next, zone: zone)
    speech.say(text, locale: locale, voice: voice, devices: config.audio.devices)
  }
}
