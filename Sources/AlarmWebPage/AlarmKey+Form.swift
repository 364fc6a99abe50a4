import AlarmCore

extension AlarmKey {
  /// Where the add / edit form shows a key: on its first card, each with a control of its
  /// own, or under "More settings", where its control follows from its `kind`.
  public enum FormPlace: Sendable {
    case main, more
  }

  /// See `FormPlace`. Every key is somewhere: all a file can set, the phone can.
  public var formPlace: FormPlace {
    switch self {
    case .time, .days, .label, .sound, .volume, .enabled: return .main
    // The switch is on the first card; the length is a setting.
    case .snooze: return .more
    case .id, .date, .fallbackSound, .soundOrder, .ramp, .maxSnoozes, .ringFor, .escalateAfter,
      .escalateVolume,
      .escalateSound, .announce, .announceEvery, .skip, .skipCalendars:
      return .more
    }
  }

  /// The keys under "More settings": the file's order, the id last.
  public static let moreSettings =
    allCases.filter { $0.formPlace == .more && $0 != .id } + [.id]

  /// The form field's name: the key, but `snooze_length` (`snooze` is the switch).
  public var formName: String { self == .snooze ? "snooze_length" : rawValue }
}
