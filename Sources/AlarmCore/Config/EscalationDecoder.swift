/// `escalate_after`, `escalate_volume` and `escalate_sound`, in `[defaults]` and per alarm.
enum EscalationDecoder {
  static let keys = ["escalate_after", "escalate_volume", "escalate_sound"]
  static let afterRange = Duration.seconds(1)...Duration.seconds(12 * 3600)

  /// Overrides what `r` sets; warns (at the key that `r` sets) when the escalation could
  /// not happen or would not be louder.
  static func apply(_ r: TableReader, to d: inout AlarmDefaults) {
    if let entry = r.entry("escalate_after") {
      if case .boolean(false) = entry.node.value {
        d.escalateAfter = nil
      } else if let v = r.duration(entry, in: afterRange) {
        d.escalateAfter = v
      }
    }
    if let v = r.integer("escalate_volume", in: 0...100) { d.escalateVolume = Int(v) }
    if let sound = r.string("escalate_sound", maxBytes: TableReader.maxPathBytes) {
      if let why = SoundName.problem(sound), let entry = r.entry("escalate_sound") {
        r.state.error(entry.node.range.start, why)
      } else {
        d.escalateSound = sound
      }
    }
    guard let after = d.escalateAfter else { return }
    if after >= d.ringFor, let entry = r.table.entry("escalate_after") ?? r.table.entry("ring_for")
    {
      r.state.warning(
        entry.node.range.start,
        "'escalate_after' (\(DurationText.format(after))) is not shorter than 'ring_for' "
          + "(\(DurationText.format(d.ringFor))): the alarm stops before it escalates")
    }
    if d.escalateVolume < d.volume,
      let entry = r.table.entry("escalate_volume") ?? r.table.entry("volume")
    {
      r.state.warning(
        entry.node.range.start,
        "'escalate_volume' (\(d.escalateVolume)) is below 'volume' (\(d.volume)): "
          + "escalating makes the alarm quieter")
    }
  }
}
