/// Sound folders: the engine keeps which file each alarm rang last, in its state.
extension AlarmEngine {
  /// Records that `alarmID` rings `file` (a name inside its sound folder) and returns
  /// `.saveState`, so the turn survives a restart.
  public mutating func soundChosen(alarmID: String, file: String) -> [EngineAction] {
    guard state.lastSounds[alarmID] != file else { return [] }
    state.lastSounds[alarmID] = file
    // Alarms removed from the config need no turn.
    state.lastSounds = state.lastSounds.filter { alarms[$0.key] != nil }
    return [.saveState]
  }
}
