import AlarmCore
import AlarmPlatform

/// The sound a ring session plays: chosen once, when the ring is prepared (or when it
/// starts unprepared), and kept through the session's snoozes.
struct ChosenSound: Equatable {
  var alarmID: String
  /// The occurrence it was chosen for (`RingSession.firing`).
  var firing: Instant
  /// The alarm's `sound` as configured, so a changed config chooses again.
  var name: String?
  /// The file to play; nil for the bundled default sound (or when `problem` is set).
  var path: String?
  /// For a sound folder: the file's name inside it, recorded as played when it rings.
  var folderFile: String?
  /// Why the fallback tone rings instead (unresolvable sound, empty folder, bad file).
  var problem: SoundError?
}

extension Service {
  /// Resolves `alarm`'s sound for the occurrence at `firing`; for a folder, lists it and
  /// picks a file after the one it rang last (`SoundPicker`). Runs on the loop thread,
  /// never on the playback thread.
  func chooseSound(_ alarm: Alarm, firing: Instant) -> ChosenSound {
    var chosen = ChosenSound(alarmID: alarm.id, firing: firing, name: alarm.sound)
    guard let name = alarm.sound else { return chosen }
    do throws(SoundError) {
      switch try Service.soundResolver(config).locate(name) {
      case .file(let path):
        chosen.path = path
      case .folder(let folder):
        let files = try SoundResolver.playableFiles(in: folder)
        let last = engine.state.lastSounds[alarm.id]
        // swift-format-ignore: playableFiles never returns an empty list
        let file = SoundPicker.pick(files, order: alarm.soundOrder, last: last)!
        chosen.folderFile = file
        chosen.path = folder.hasSuffix("/") ? folder + file : folder + "/" + file
      }
    } catch {
      chosen.problem = error
    }
    return chosen
  }

  /// The sound for the ring session that is starting: the one chosen when it was
  /// prepared (or earlier in the session, before a snooze), else a new choice.
  func soundForSession(_ alarm: Alarm, now: Instant) -> ChosenSound {
    let firing = engine.state.session.map(\.firing) ?? now
    if let c = chosenSound, c.alarmID == alarm.id, c.firing == firing, c.name == alarm.sound {
      return c
    }
    let c = chooseSound(alarm, firing: firing)
    chosenSound = c
    return c
  }

  /// Records a folder's file as rung, so the next ring takes the next turn.
  func soundRinging(_ chosen: ChosenSound) {
    guard let file = chosen.folderFile else { return }
    perform(engine.soundChosen(alarmID: chosen.alarmID, file: file))
  }

  /// The session's sound for `status`.
  func sessionSound(_ session: SessionStatus) -> SessionStatus {
    var s = session
    guard let c = chosenSound, c.alarmID == s.id, engine.state.session?.firing == c.firing
    else { return s }
    s.sound = c.path
    s.soundProblem = c.problem?.description
    return s
  }
}
