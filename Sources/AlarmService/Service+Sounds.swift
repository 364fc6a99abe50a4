import AlarmAudio
import AlarmCore
import AlarmFiles
import AlarmPlatform

extension Service {
  /// Resolves `alarm`'s sound for the occurrence at `firing`; for a folder, lists it and
  /// picks a file after the one it rang last (`SoundPicker`). Runs on the loop thread,
  /// never on the playback thread.
  func chooseSound(_ alarm: Alarm, firing: Instant) -> ChosenSound {
    var chosen = ChosenSound(
      alarmID: alarm.id, firing: firing, settings: Self.soundSettings(alarm))
    if let after = alarm.escalateAfter {
      var e = Escalation(after: after, volume: alarm.escalateVolume)
      if let name = alarm.escalateSound, StreamURL.isStream(name) {
        e.stream = StreamSound(url: name)
      } else if let name = alarm.escalateSound {
        // A folder as the escalation sound: a random file, not remembered.
        do throws(SoundError) {
          e.sound = try pickFile(name, order: .shuffle, last: nil).path
        } catch {
          e.unplayable = error
        }
      }
      chosen.escalation = e
    }
    guard let name = alarm.sound else { return chosen }
    if StreamURL.isStream(name) {
      var stream = StreamSound(url: name)
      if let fallback = alarm.fallbackSound {
        do throws(SoundError) {
          stream.fallback = try pickFile(fallback, order: .shuffle, last: nil).path
        } catch {
          stream.fallbackProblem = error
        }
      }
      chosen.stream = stream
      return chosen
    }
    do throws(SoundError) {
      let last = engine.state.lastSounds[alarm.id]
      (chosen.path, chosen.folderFile) = try pickFile(name, order: alarm.soundOrder, last: last)
    } catch {
      chosen.problem = error
    }
    return chosen
  }

  /// The file for the sound `name`: itself, or one picked from its folder (with its name
  /// inside the folder).
  private func pickFile(_ name: String, order: SoundOrder, last: String?) throws(SoundError)
    -> (path: String, folderFile: String?)
  {
    switch try Service.soundResolver(config).locate(name) {
    case .file(let path):
      return (path, nil)
    case .folder(let folder):
      let files = try SoundResolver.playableFiles(in: folder)
      // swift-format-ignore: playableFiles never returns an empty list
      let file = SoundPicker.pick(files, order: order, last: last)!
      return (folder.hasSuffix("/") ? folder + file : folder + "/" + file, file)
    }
  }

  /// The sound for the ring session that is starting: the one chosen when it was
  /// prepared (or earlier in the session, before a snooze), else a new choice.
  func soundForSession(_ alarm: Alarm, now: Instant) -> ChosenSound {
    let firing = engine.state.session.map(\.firing) ?? now
    if let c = ring.chosen, c.alarmID == alarm.id, c.firing == firing,
      c.settings == Self.soundSettings(alarm)
    {
      return c
    }
    let c = chooseSound(alarm, firing: firing)
    ring.keep(c)
    return c
  }

  /// What a ring's sound depends on in the alarm's settings.
  static func soundSettings(_ a: Alarm) -> [String] {
    [
      a.sound ?? "", a.fallbackSound ?? "", a.soundOrder.rawValue,
      a.escalateAfter.map { "\($0)" } ?? "",
      "\(a.escalateVolume)", a.escalateSound ?? "",
    ]
  }

  /// Records a folder's file as rung, so the next ring takes the next turn.
  func soundRinging(_ chosen: ChosenSound) {
    guard let file = chosen.folderFile else { return }
    perform(engine.soundChosen(alarmID: chosen.alarmID, file: file))
  }

}
