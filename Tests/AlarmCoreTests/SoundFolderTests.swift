import AlarmCore
import Testing

/// `sound_order` in the config, the folder picker, and the turn kept in the state file.
@Suite struct SoundFolderTests {
  @Test func soundOrderDecodesInDefaultsAndPerAlarm() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        sound = "mornings/"
        sound_order = "rotate"

        [[alarm]]
        id = "work"
        time = "06:45"

        [[alarm]]
        id = "gym"
        time = "07:30"
        sound = "/srv/sounds/gym"
        sound_order = "shuffle"

        [[alarm]]
        id = "nap"
        time = "14:00"
        sound = "rooster"
        """))
    let byID = Dictionary(uniqueKeysWithValues: config.alarms.map { ($0.id, $0) })
    #expect(byID["work"]?.sound == "mornings/" && byID["work"]?.soundOrder == .rotate)
    #expect(byID["gym"]?.soundOrder == .shuffle)
    #expect(byID["nap"]?.soundOrder == .rotate)  // inherited; unused for a single file
    #expect(AlarmDefaults().soundOrder == .shuffle)
  }

  @Test func anUnknownSoundOrderIsAnErrorAtItsValueWithASuggestion() {
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nsound_order = \"rotat\"\n")
        == [
          #"3:15: 'sound_order' must be "shuffle" or "rotate", not "rotat"; did you mean "rotate"?"#
        ])
    #expect(
      messages("[defaults]\nsound_order = \"random\"\n")
        == [
          #"2:15: 'sound_order' must be "shuffle" or "rotate", not "random"; did you mean "shuffle"?"#
        ])
    #expect(
      messages("[defaults]\nsound_order = 2\n")
        == [#"2:15: 'sound_order' must be "shuffle" or "rotate", not an integer"#])
  }

  @Test func rotateGoesInNameOrderAndWraps() {
    let files = ["c.ogg", "a.wav", "b.mp3"]
    var last: String? = nil
    var rung: [String] = []
    for _ in 0..<4 {
      last = SoundPicker.pick(files, order: .rotate, last: last)
      rung.append(last ?? "-")
    }
    #expect(rung == ["a.wav", "b.mp3", "c.ogg", "a.wav"])
  }

  @Test func rotateKeepsItsTurnWhenFilesComeAndGo() {
    // b.mp3 rang last and was then deleted: the next name after it rings.
    #expect(SoundPicker.pick(["a.wav", "c.ogg"], order: .rotate, last: "b.mp3") == "c.ogg")
    // A file added after the last one is next; one added before waits for the wrap.
    #expect(
      SoundPicker.pick(["a.wav", "b.mp3", "bb.wav"], order: .rotate, last: "b.mp3") == "bb.wav")
    #expect(
      SoundPicker.pick(["0.wav", "a.wav", "b.mp3"], order: .rotate, last: "b.mp3") == "0.wav")
    #expect(SoundPicker.pick([], order: .rotate, last: nil) == nil)
  }

  @Test func shuffleNeverRepeatsWithTwoOrMoreFiles() {
    var rng = SystemRandomNumberGenerator()
    for files in [["a.wav", "b.wav"], ["a.wav", "b.wav", "c.wav", "d.wav"]] {
      var last: String? = nil
      var seen: Set<String> = []
      for _ in 0..<400 {
        let next = SoundPicker.pick(
          files, order: .shuffle, last: last, random: { Int.random(in: 0..<$0, using: &rng) })
        #expect(next != nil && next != last)
        last = next
        seen.insert(next ?? "")
      }
      #expect(seen == Set(files))  // every file gets its turn
    }
    // One file: it rings every time.
    #expect(SoundPicker.pick(["only.wav"], order: .shuffle, last: "only.wav") == "only.wav")
    // A hostile random source cannot index out of range.
    #expect(
      SoundPicker.pick(["a", "b", "c"], order: .shuffle, last: "a", random: { _ in 99 }) == "c")
  }

  @Test func theLastSoundSurvivesTheStateCodec() throws {
    var state = ServiceState(lastChecked: Instant(seconds: 1_764_657_900))
    state.lastSounds = ["work": "b.mp3", "gym": "Früh 早.ogg"]
    let bytes = StateCodec.encode(state)
    #expect(try StateCodec.decode(bytes) == state)
    #expect(String(decoding: bytes, as: UTF8.self).contains(#""work": "b.mp3""#))
    // Files written before sound folders existed still read.
    #expect(
      !String(decoding: StateCodec.encode(ServiceState()), as: UTF8.self).contains("last_sounds"))
    let bad = Array(#"{"version": 1, "last_sounds": {"work": 3}}"#.utf8)
    #expect(throws: StateDecodeError.self) { try StateCodec.decode(bad) }
  }
}

/// `escalate_after`, `escalate_volume` and `escalate_sound`.
@Suite struct EscalationConfigTests {
  @Test func escalationDecodesInDefaultsAndPerAlarm() throws {
    let config = try #require(
      validConfig(
        """
        [defaults]
        volume = 60
        escalate_after = "3m"

        [[alarm]]
        id = "work"
        time = "06:45"

        [[alarm]]
        id = "gym"
        time = "07:30"
        escalate_volume = 90
        escalate_sound = "klaxon"

        [[alarm]]
        id = "nap"
        time = "14:00"
        escalate_after = false
        """))
    let byID = Dictionary(uniqueKeysWithValues: config.alarms.map { ($0.id, $0) })
    #expect(byID["work"]?.escalateAfter == .seconds(180) && byID["work"]?.escalateVolume == 100)
    #expect(byID["work"]?.escalateSound == nil)
    #expect(byID["gym"]?.escalateVolume == 90 && byID["gym"]?.escalateSound == "klaxon")
    #expect(byID["nap"]?.escalateAfter == nil)
    #expect(AlarmDefaults().escalateAfter == nil)
  }

  @Test func anEscalationThatCannotHappenOrIsQuieterIsAWarning() {
    #expect(
      messages(
        "[[alarm]]\ntime = \"06:45\"\nring_for = \"2m\"\nescalate_after = \"5m\"\n")
        == [
          "4:18: warning: 'escalate_after' (5m) is not shorter than 'ring_for' (2m): "
            + "the alarm stops before it escalates"
        ])
    #expect(
      messages(
        "[[alarm]]\ntime = \"06:45\"\nvolume = 80\nescalate_after = \"1m\"\nescalate_volume = 50\n")
        == [
          "5:19: warning: 'escalate_volume' (50) is below 'volume' (80): "
            + "escalating makes the alarm quieter"
        ])
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nescalate_volume = 101\n").first?.hasPrefix("3:19:")
        == true)
    #expect(
      messages("[[alarm]]\ntime = \"06:45\"\nescalate_sound = \"../x\"\n").first?.contains("'..'")
        == true)
  }
}
