import TOML

/// The settings `[defaults]` and `[[alarm]]` share: sound, volume, ramp, snooze, ring_for.
enum DefaultsDecoder {
  static let keys =
    [
      "sound", "fallback_sound", "sound_order", "volume", "ramp", "snooze", "ring_for",
      "skip_calendars",
    ]
    + EscalationDecoder.keys + ["max_snoozes", "announce", "announce_every"]
  /// `max_snoozes`: 0 refuses every snooze (and says why); larger is no real limit.
  static let maxSnoozesRange: ClosedRange<Int64> = 0...1000
  static let rampRange = Duration.zero...Duration.seconds(3600)
  static let snoozeRange = Duration.seconds(1)...Duration.seconds(3600)
  static let ringForRange = Duration.seconds(1)...Duration.seconds(12 * 3600)
  /// `announce_every`: a sentence takes a few seconds; more often would be one long speech.
  static let announceEveryRange = Duration.seconds(15)...Duration.seconds(3600)
  /// What `snooze = true` means when nothing else gives a length.
  static let standardSnooze = Duration.seconds(9 * 60)

  static func decode(_ r: TableReader) -> AlarmDefaults {
    var d = AlarmDefaults()
    apply(r, to: &d, inherited: AlarmDefaults())
    return d
  }

  /// Overrides the fields of `d` that `r` sets. `snooze = true` takes the inherited
  /// length (or 9 minutes when the inherited snooze is off).
  static func apply(_ r: TableReader, to d: inout AlarmDefaults, inherited: AlarmDefaults) {
    if let sound = r.string("sound", maxBytes: TableReader.maxPathBytes) {
      if let why = SoundName.problem(sound), let entry = r.entry("sound") {
        r.state.error(entry.node.range.start, why)
      } else {
        d.sound = sound
      }
    }
    if let sound = r.string("fallback_sound", maxBytes: TableReader.maxPathBytes) {
      if let why = SoundName.fallbackProblem(sound), let entry = r.entry("fallback_sound") {
        r.state.error(entry.node.range.start, why)
      } else {
        d.fallbackSound = sound
      }
    }
    if let entry = r.entry("sound_order") {
      let names = SoundOrder.allCases.map(\.rawValue)
      if case .string(let text) = entry.node.value, let order = SoundOrder(rawValue: text) {
        d.soundOrder = order
      } else if case .string(let text) = entry.node.value {
        var message = "'sound_order' must be \"shuffle\" or \"rotate\", not \(quoted(text))"
        if let guess = Suggestion.closest(to: text, in: names) ?? SoundOrder.synonyms[text] {
          message += "; did you mean \(quoted(guess))?"
        }
        r.state.error(entry.node.range.start, message)
      } else {
        r.mismatch(entry, "\"shuffle\" or \"rotate\"")
      }
    }
    if let volume = r.integer("volume", in: 0...100) {
      d.volume = Int(volume)
      if volume == 0, let entry = r.table.entry("volume") {
        r.state.warning(entry.node.range.start, "'volume' is 0: the alarm will ring silently")
      }
    }
    if let ramp = r.duration("ramp", in: rampRange, wholeSeconds: false) { d.ramp = ramp }
    if let entry = r.entry("snooze") {
      switch entry.node.value {
      case .boolean(false): d.snooze = nil
      case .boolean(true): d.snooze = inherited.snooze ?? standardSnooze
      case .string("0s"):
        r.mismatch(
          entry, "between 1s and 1h", actual: "0s (write snooze = false to turn snooze off)")
      case .string:
        if let v = r.duration(entry, in: snoozeRange) { d.snooze = v }
      default:
        r.mismatch(entry, "a duration like \"9m\", or true or false")
      }
    }
    if let ringFor = r.duration("ring_for", in: ringForRange) { d.ringFor = ringFor }
    if let calendars = skipCalendars(r) { d.skipCalendars = calendars }
    EscalationDecoder.apply(r, to: &d)
    if let n = r.integer("max_snoozes", in: maxSnoozesRange) { d.maxSnoozes = Int(n) }
    if let announce = r.bool("announce") { d.announce = announce }
    if let every = r.duration("announce_every", in: announceEveryRange) { d.announceEvery = every }
    if d.ramp > d.ringFor, let entry = r.table.entry("ramp") ?? r.table.entry("ring_for") {
      r.state.warning(
        entry.node.range.start,
        "'ramp' (\(DurationText.format(d.ramp))) is longer than 'ring_for' "
          + "(\(DurationText.format(d.ringFor))): the alarm stops before it is at full volume")
    }
  }
}

extension DefaultsDecoder {
  /// `skip_calendars`: iCalendar paths, resolved against the config's directory. An
  /// alarm's list replaces the default one (`[]` turns the defaults' calendars off).
  static func skipCalendars(_ r: TableReader) -> [String]? {
    guard
      let paths = r.stringList(
        "skip_calendars", maxBytes: TableReader.maxPathBytes,
        expectation: "a list of iCalendar files like [\"holidays.ics\"]"),
      case .array(let array) = r.entry("skip_calendars")?.node.value
    else { return nil }
    var out: [String] = []
    for (path, element) in zip(paths, array.elements) {
      let resolved = ConfigDecoder.resolve(path, base: r.state.base)
      if out.contains(resolved) {
        r.state.warning(element.range.start, "'skip_calendars' lists \(quoted(path)) twice")
        continue
      }
      out.append(resolved)
      if r.state.calendarPositions[resolved] == nil {
        r.state.calendarPositions[resolved] = element.range.start
      }
    }
    return out
  }
}

/// `[[alarm]]` tables: every key checked, ids given or derived, duplicates found.
enum AlarmDecoder {
  static let keys =
    ["id", "time", "days", "date", "label", "enabled", "skip"] + DefaultsDecoder.keys

  /// `sources[i]` is where `tables[i]` is written.
  static func decode(
    _ tables: [TableReader], sources tableSources: [AlarmSource], defaults: AlarmDefaults,
    now: LocalDate?, state: DecodeState
  ) -> ([Alarm], [String: AlarmSource]) {
    // The alarms are built in place, with their explicit ids and sources beside them, and
    // every array reserved: a config of thousands of alarms otherwise copies (and faults
    // in) each one as it doubles, and copies every alarm once more at the end.
    var alarms: [Alarm] = []
    alarms.reserveCapacity(tables.count)
    var explicit: [Bool] = []
    explicit.reserveCapacity(tables.count)
    var alarmSources: [AlarmSource] = []
    alarmSources.reserveCapacity(tables.count)
    var explicitIDs: [(String, SourcePosition)] = []  // of every alarm, valid or not
    explicitIDs.reserveCapacity(tables.count)
    for (reader, source) in zip(tables, tableSources) {
      let id = explicitID(reader)
      if let id { explicitIDs.append(id) }
      if append(reader, id: id, defaults: defaults, now: now, to: &alarms) {
        explicit.append(id != nil)
        alarmSources.append(source)
      }
    }

    // Explicit ids first: all of them are taken before any id is derived.
    var firstUse: [String: SourcePosition] = [:]
    firstUse.reserveCapacity(explicitIDs.count)
    for (id, position) in explicitIDs {
      // One lookup for the usual unique id; a duplicate puts the first use back.
      if let first = firstUse.updateValue(position, forKey: id) {
        firstUse[id] = first
        state.error(position, "duplicate id '\(id)' (first used at line \(first.line))")
      }
    }
    var taken = Set(firstUse.keys)
    let derivedIndices = alarms.indices.filter { !explicit[$0] }
    let derived = AlarmID.derive(
      bases: derivedIndices.map { AlarmID.base(label: alarms[$0].label, time: alarms[$0].time) },
      taken: &taken)
    for (i, id) in zip(derivedIndices, derived) { alarms[i].id = id }

    var sources: [String: AlarmSource] = [:]
    sources.reserveCapacity(alarms.count)
    // Backwards, so that the first alarm of an id is the one that stays.
    for i in alarms.indices.reversed() { sources[alarms[i].id] = alarmSources[i] }
    return (alarms, sources)
  }

  /// The `id` written in the table, if it is a valid one (else it is reported).
  private static func explicitID(_ r: TableReader) -> (String, SourcePosition)? {
    if let entry = r.entry("id") {
      if case .string(let id) = entry.node.value, AlarmID.isValid(id) {
        return (id, entry.node.range.start)
      } else {
        let actual: String? = if case .string(let id) = entry.node.value { quoted(id) } else { nil }
        r.mismatch(
          entry,
          "lower-case letters, digits, '-' and '_', starting with a letter or digit "
            + "(at most \(AlarmID.maxLength) characters)", actual: actual)
      }
    }
    return nil
  }

  /// Appends the alarm `r` describes to `alarms`, its id the explicit one (or empty,
  /// derived later); false when it has an error (reported). Built in place: returned, an
  /// alarm (about 300 bytes) was copied twice on its way into the array.
  private static func append(
    _ r: TableReader, id explicitID: (String, SourcePosition)?, defaults: AlarmDefaults,
    now: LocalDate?, to alarms: inout [Alarm]
  ) -> Bool {
    let errorsBefore = r.state.errorCount
    let time = self.time(r)
    let days = self.days(r)
    let date = self.date(r, key: "date")
    if date != nil, !(days ?? .never).isEmpty, let dateEntry = r.table.entry("date"),
      let daysEntry = r.table.entry("days")
    {
      r.state.error(
        dateEntry.node.range.start,
        "'date' cannot be combined with 'days' (line \(daysEntry.keyRange.start.line)): "
          + "an alarm with a date rings once on that day")
    } else if let date, let now, date < now, let entry = r.table.entry("date") {
      r.state.warning(
        entry.node.range.start, "'date' \(date) is in the past: this alarm will not ring")
    }
    var label = r.string("label", nonEmpty: false, maxBytes: .max)
    if let text = label, let problem = labelProblem(text), let entry = r.table.entry("label") {
      r.state.error(entry.node.range.start, "'label' \(problem)")
      label = nil
    }
    let enabled = r.bool("enabled") ?? true
    let (skip, skipRanges) = self.skip(r)
    var settings = defaults
    DefaultsDecoder.apply(r, to: &settings, inherited: defaults)

    guard let time else {
      if r.table.entry("time") == nil {
        r.state.error(r.anchor, "this [[alarm]] has no 'time' (e.g. time = \"06:45\")")
      }
      return false
    }
    guard r.state.errorCount == errorsBefore else {
      return false
    }
    alarms.append(
      Alarm(
        id: explicitID?.0 ?? "", time: time, days: days ?? .never, date: date,
        label: label?.isEmpty == true ? nil : label, defaults: settings, enabled: enabled,
        skip: skip))
    alarms[alarms.count - 1].skipRanges = skipRanges
    return true
  }

  /// Why `text` cannot be a label (the file's `label` and the `--label` of `add`/`edit`),
  /// as words after "'label' "; nil when it can be one. A label goes raw to terminals
  /// (`list`, `add`, `edit`), to the state file and to control replies, so line breaks,
  /// C0/C1 control characters (ESC, BEL, ...), DEL and the bidi embedding, override and
  /// isolate controls (U+202A-U+202E, U+2066-U+2069) are refused, and so is a label
  /// over `Alarm.maxLabelCharacters` or `Alarm.maxLabelBytes`. Checked by scalar: walking
  /// every label by grapheme clusters cost more than the rest of its alarm's decoding.
  public static func labelProblem(_ text: String) -> String? {
    // Bytes first: a 16 MiB label is refused without walking it.
    let bytes = text.utf8.count
    if bytes > Alarm.maxLabelBytes {
      return "is too long: \(bytes) bytes in UTF-8, at most \(Alarm.maxLabelBytes)"
    }
    // Printable ASCII, the usual label, is one character a byte and needs no walk
    // by scalar (it was most of a label's cost).
    var copy = text
    if copy.withUTF8({ $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) {
      return bytes > Alarm.maxLabelCharacters
        ? "is too long: at most \(Alarm.maxLabelCharacters) characters" : nil
    }
    for s in text.unicodeScalars {
      switch s.value {
      case 0x0A...0x0D, 0x85, 0x2028, 0x2029:
        return "must be one line"
      case 0x00...0x1F, 0x7F...0x9F:
        return "must not contain the control character \(codePoint(s)) (a terminal would act on it)"
      case 0x202A...0x202E, 0x2066...0x2069:
        return "must not contain the bidi control \(codePoint(s)) (it reorders text on screen)"
      default:
        continue
      }
    }
    // A label has at most as many characters as UTF-8 bytes: count only long ones.
    if bytes > Alarm.maxLabelCharacters {
      var count = 0
      for _ in text {
        count += 1
        if count > Alarm.maxLabelCharacters {
          return "is too long: at most \(Alarm.maxLabelCharacters) characters"
        }
      }
    }
    return nil
  }

  /// `U+001B`.
  static func codePoint(_ s: Unicode.Scalar) -> String {
    let hex = String(s.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  private static func time(_ r: TableReader) -> LocalTime? {
    guard let entry = r.entry("time") else { return nil }
    let expectation = "a time like \"06:45\" or \"06:45:30\""
    switch entry.node.value {
    case .string(let text):
      if let t = parseTime(text) { return t }
      r.mismatch(entry, expectation, actual: quoted(text))
    case .localTime(let t):
      guard t.nanosecond == 0 else {
        r.mismatch(entry, "a whole number of seconds", actual: "a fraction of a second")
        return nil
      }
      return LocalTime(hour: t.hour, minute: t.minute, second: t.second)
    default:
      r.mismatch(entry, expectation)
    }
    return nil
  }

  /// `HH:MM` or `HH:MM:SS`, ASCII digits only (no signs or spaces), a real time of day.
  static func parseTime(_ text: String) -> LocalTime? {
    // withUTF8 reads a short string in place, without copying it into an array.
    var text = text
    return text.withUTF8 { b -> LocalTime? in
      guard b.count == 5 || b.count == 8, b[2] == UInt8(ascii: ":"),
        b.count == 5 || b[5] == UInt8(ascii: ":")
      else { return nil }
      func two(_ i: Int) -> Int? {
        let (h, l) = (b[i], b[i + 1])
        guard (48...57).contains(h), (48...57).contains(l) else { return nil }
        return Int(h - 48) * 10 + Int(l - 48)
      }
      guard let hour = two(0), let minute = two(3) else { return nil }
      let second = b.count == 8 ? two(6) : 0
      guard let second else { return nil }
      let time = LocalTime(hour: hour, minute: minute, second: second)
      return time.isValid ? time : nil
    }
  }

  private static let dayNames = ["daily", "weekdays", "weekends", "never"]
  private static let dayKeyList = Weekday.allCases.map(\.key)

  private static func weekday(_ text: String) -> Weekday? {
    // The usual `mon` to `sun` by comparison: hashing each for a dictionary cost more.
    for (n, key) in dayKeyList.enumerated() where key == text { return Weekday(rawValue: n + 1) }
    return Weekday(key: text)
  }

  private static func days(_ r: TableReader) -> DaySet? {
    guard let entry = r.entry("days") else { return nil }
    let expectation =
      "\"daily\", \"weekdays\", \"weekends\", \"never\" or a list like [\"mon\", \"wed\"]"
    switch entry.node.value {
    case .string(let text):
      switch text {
      case "daily": return .daily
      case "weekdays": return .weekdays
      case "weekends": return .weekends
      case "never": return .never
      default:
        if let day = Weekday(key: text) { return DaySet([day]) }
        var message = "'days' must be \(expectation), not \(quoted(text))"
        if let guess = Suggestion.closest(to: text, in: dayNames + Weekday.allCases.map(\.key)) {
          message += "; did you mean \(quoted(guess))?"
        }
        r.state.error(entry.node.range.start, message)
        return nil
      }
    case .array(let array):
      var days: [Weekday] = []
      days.reserveCapacity(array.elements.count)
      var ok = true
      for element in array.elements {
        guard case .string(let text) = element.value, let day = weekday(text) else {
          let actual: String =
            if case .string(let text) = element.value { quoted(text) } else {
              element.value.kindDescription
            }
          r.state.error(
            element.range.start,
            "'days' entries must be weekday names \"mon\" to \"sun\", not \(actual)")
          ok = false
          continue
        }
        if days.contains(day) {
          r.state.warning(element.range.start, "'days' lists \(quoted(day.key)) twice")
        }
        days.append(day)
      }
      return ok ? DaySet(days) : nil
    default:
      r.mismatch(entry, expectation)
      return nil
    }
  }

  /// A local date, or a `YYYY-MM-DD` string.
  private static func date(_ r: TableReader, key: String) -> LocalDate? {
    guard let entry = r.entry(key) else { return nil }
    return date(entry.node, key: key, r)
  }

  private static func date(_ node: TOMLNode, key: String, _ r: TableReader) -> LocalDate? {
    let expectation = key == "skip" ? skipExpectation : "a date like 2027-03-28"
    var what: String { key == "skip" ? "'skip' entries" : "'\(key)'" }
    var which: String { key == "skip" ? "'skip' date" : "'\(key)'" }
    switch node.value {
    case .localDate(let d):
      let date = LocalDate(year: d.year, month: d.month, day: d.day)
      if date.isValid { return date }
      r.state.error(node.range.start, "\(which) \(date) does not exist")
    case .string(let text):
      if let date = LocalDate(iso: text) { return date }
      let parts = text.split(separator: "-")
      if parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
        r.state.error(node.range.start, "\(which) \(text) does not exist")
      } else {
        r.state.error(node.range.start, "\(what) must be \(expectation), not \(quoted(text))")
      }
    case .localDateTime, .offsetDateTime:
      r.state.error(
        node.range.start,
        "\(what) must be \(expectation), not \(node.value.kindDescription) "
          + "(the time goes in 'time')")
    default:
      r.state.error(
        node.range.start, "\(what) must be \(expectation), not \(node.value.kindDescription)")
    }
    return nil
  }

  static let skipExpectation =
    "a date like 2027-12-24 or a range like { from = 2027-07-19, to = 2027-07-30 }"

  /// `skip`: single dates and inclusive `{ from, to }` ranges.
  private static func skip(_ r: TableReader) -> (Set<LocalDate>, [DateRange]) {
    guard let entry = r.entry("skip") else { return ([], []) }
    guard case .array(let array) = entry.node.value else {
      r.mismatch(entry, "a list of dates like [2027-12-25, { from = 2027-07-19, to = 2027-07-30 }]")
      return ([], [])
    }
    var out: Set<LocalDate> = []
    var ranges: [DateRange] = []
    for element in array.elements {
      if case .table(let table) = element.value {
        if let range = skipRange(table, at: element.range.start, r) {
          if ranges.contains(range) {
            r.state.warning(element.range.start, "'skip' lists the range \(range) twice")
          } else {
            ranges.append(range)
          }
        }
        continue
      }
      guard let date = date(element, key: "skip", r) else { continue }
      if !out.insert(date).inserted {
        r.state.warning(element.range.start, "'skip' lists \(date) twice")
      }
    }
    return (out, ranges)
  }

  /// One `{ from = ..., to = ... }` entry of `skip`.
  private static func skipRange(_ table: TOMLTable, at position: SourcePosition, _ r: TableReader)
    -> DateRange?
  {
    let reader = TableReader(
      table, section: "a 'skip' range", anchor: position, known: ["from", "to"], state: r.state)
    let from = date(reader, key: "from")
    let to = date(reader, key: "to")
    for key in ["from", "to"] where table.entry(key) == nil {
      r.state.error(
        position, "a 'skip' range needs '\(key)' (e.g. { from = 2027-07-19, to = 2027-07-30 })")
    }
    guard let from, let to else { return nil }
    guard from <= to else {
      r.state.error(
        table.entry("to")?.node.range.start ?? position,
        "a 'skip' range ends (\(to)) before it starts (\(from))")
      return nil
    }
    return DateRange(from: from, to: to)
  }
}
