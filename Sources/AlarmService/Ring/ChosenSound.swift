import AlarmAudio
import AlarmCore
import AlarmFiles

/// The sound a ring session plays: chosen once, when the ring is prepared (or when it
/// starts unprepared), and kept through the session's snoozes.
struct ChosenSound: Equatable {
  var alarmID: String
  /// The occurrence it was chosen for (`RingSession.firing`).
  var firing: Instant
  /// The alarm's sound and escalation settings, so a changed config chooses again.
  var settings: [String]
  /// The file to play; nil for the bundled default sound (or when `problem` is set).
  var path: String?
  /// For a sound folder: the file's name inside it, recorded as played when it rings.
  var folderFile: String?
  /// Why the fallback tone rings instead (unresolvable sound, empty folder, bad file).
  var problem: SoundError?
  /// The alarm's escalation, its sound resolved (and picked, for a folder) with the rest.
  var escalation: Escalation?
  /// A stream sound and its resolved fallback (then `path` is nil).
  var stream: StreamSound?
  /// Why the stream's fallback rings now (nil while the stream plays).
  var streamProblem: String?
}
