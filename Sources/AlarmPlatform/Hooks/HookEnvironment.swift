import AlarmCore

/// The `ALARM_*` variables a hook gets on top of the service's environment
/// (docs/config.md, `[hooks]`).
public enum HookEnvironment {
  /// `ALARM_ID` (the alarm's id), `ALARM_LABEL` (its label, or `defaultLabel` when it has
  /// none), `ALARM_EVENT` (`pre_ring`, `ring`, `snooze`, `stop`, `missed`,
  /// `audio_failed`) and `ALARM_TIME`
  /// (the occurrence concerned — for `pre_ring` the ring time, not now — as ISO 8601 local
  /// time with its offset, e.g. `2027-03-28T06:45:00+02:00`).
  public static func variables(
    for call: HookCall, zone: TimeZoneRules, defaultLabel: String = "Alarm"
  ) -> [String: String] {
    [
      "ALARM_ID": call.alarmID,
      "ALARM_LABEL": call.label ?? defaultLabel,
      "ALARM_EVENT": call.event.rawValue,
      "ALARM_TIME": ISO8601Text.format(call.firing, in: zone),
    ]
  }

  /// For `audio_failed`, beside the alarm's variables: `ALARM_AUDIO_FAILED` (the devices
  /// that could not be opened, space-separated) and `ALARM_AUDIO_DEVICE` (what the alarm
  /// will ring on: a device, `buzzer`, or empty when nothing can sound).
  public static func audioFailed(failed: [String], failover: String) -> [String: String] {
    ["ALARM_AUDIO_FAILED": failed.joined(separator: " "), "ALARM_AUDIO_DEVICE": failover]
  }

  /// For an event that concerns no alarm (`idle_press`): `ALARM_EVENT` is set, and
  /// `ALARM_ID`, `ALARM_LABEL` and `ALARM_TIME` are empty (set, so a script using
  /// `set -u` still runs).
  public static func variables(for event: HookEvent) -> [String: String] {
    ["ALARM_ID": "", "ALARM_LABEL": "", "ALARM_EVENT": event.rawValue, "ALARM_TIME": ""]
  }
}
