import TOML

/// Turns config text into a validated `Config`, reporting every problem of the file
/// at its `line:col` (not only the first). Pure: no file access, no clock.
public enum ConfigDecoder {
  /// Parses and decodes `text`. `path` names the file in messages and anchors
  /// relative paths in `[settings]`. With `now` (today's local date), a one-off
  /// `date` in the past is warned about; without it that check is skipped.
  public static func decode(_ text: String, path: String, now: LocalDate? = nil) -> ConfigResult {
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(text)
    } catch {
      return ConfigResult(
        path: path, config: nil,
        diagnostics: [Diagnostic(.error, at: error.position, error.message)])
    }
    return decode(document, path: path, now: now)
  }

  /// Decodes an already parsed document (the config editor re-validates with this).
  public static func decode(_ document: TOMLDocument, path: String, now: LocalDate? = nil)
    -> ConfigResult
  {
    let state = DecodeState()
    let root = TableReader(
      document.root, section: "",
      anchor: SourcePosition(line: 1, column: 1, offset: 0), known: topLevelKeys, state: state)
    let base = directory(of: path)
    state.base = base

    let defaults =
      sectionTable(root, "defaults").map { DefaultsDecoder.decode($0) } ?? AlarmDefaults()
    let settings =
      sectionTable(root, "settings").map { decodeSettings($0, base: base) } ?? Settings()
    let audio = sectionTable(root, "audio").map(decodeAudio) ?? AudioConfig()
    let hooks = sectionTable(root, "hooks").map(HooksDecoder.decode) ?? HooksConfig()
    let web = sectionTable(root, "web").map { WebDecoder.decode($0, base: base) } ?? WebConfig()
    let voice = sectionTable(root, "voice").map(VoiceDecoder.decode) ?? VoiceConfig()
    let hasIdleHook = hooks.commands[.idlePress] != nil
    let buttons = sectionTables(root, "button", allowSingle: true).map {
      InputDecoder.button($0, hasIdleHook: hasIdleHook)
    }
    let inputs = sectionTables(root, "input", allowSingle: false).map {
      InputDecoder.input($0, hasIdleHook: hasIdleHook)
    }
    var tables = sectionTables(root, "alarm", allowSingle: false)
    if tables.count > Config.maxAlarms {
      state.error(
        tables[Config.maxAlarms].anchor,
        "too many alarms: at most \(Config.maxAlarms) are allowed, "
          + "and this is alarm \(Config.maxAlarms + 1) of \(tables.count)")
      tables.removeLast(tables.count - Config.maxAlarms)
    }
    let (alarms, sources) = AlarmDecoder.decode(
      tables, sources: alarmSources(tables, document: document), defaults: defaults, now: now,
      state: state)

    let diagnostics = state.diagnostics.enumerated().sorted {
      ($0.element.position.offset, $0.offset) < ($1.element.position.offset, $1.offset)
    }.map(\.element)
    let hasErrors = diagnostics.contains { $0.severity == .error }
    var config = Config(
      defaults: defaults, settings: settings, audio: audio,
      buttons: buttons.compactMap { $0 }, inputs: inputs.compactMap { $0 }, hooks: hooks,
      alarms: alarms, alarmSources: sources, positions: SourcePositions(document.root))
    config.skipCalendarPositions = state.calendarPositions
    config.web = web
    config.voice = voice
    return ConfigResult(path: path, config: hasErrors ? nil : config, diagnostics: diagnostics)
  }

  /// The `[settings]` of a config that does not decode, read leniently: each line of the
  /// `[settings]` table that is valid on its own counts, the rest of the file is ignored.
  /// The service finds its own memory with this (`state_dir` with `last-good.toml` and
  /// `state.json`, its `socket`) after a typo anywhere else; a broken line there falls back
  /// to the default like an absent one.
  public static func recoverSettings(_ text: String, path: String) -> Settings {
    var inSettings = false
    var kept: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("[") {
        let header = trimmed.prefix { $0 != "#" }.filter { $0 != " " && $0 != "\t" && $0 != "\r" }
        inSettings = header == "[settings]"
        continue
      }
      guard inSettings, !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
      if decode("[settings]\n" + line, path: path).config != nil { kept.append(line) }
    }
    let table = "[settings]\n" + kept.joined(separator: "\n")
    return decode(table, path: path).config?.settings ?? Settings()
  }

  static let topLevelKeys = [
    "defaults", "settings", "audio", "button", "input", "hooks", "web", "voice", "alarm",
  ]

  /// A `[name]` table as a reader, or nil (reported) when `name` is not a table.
  private static func sectionTable(_ root: TableReader, _ name: String) -> TableReader? {
    guard let entry = root.entry(name) else { return nil }
    guard case .table(let table) = entry.node.value else {
      root.mismatch(entry, "a table ([\(name)])")
      return nil
    }
    return reader(table, name: "[\(name)]", entry: entry, state: root.state)
  }

  /// The tables of `[[name]]` (or of one `[name]` when `allowSingle`), as readers.
  private static func sectionTables(_ root: TableReader, _ name: String, allowSingle: Bool)
    -> [TableReader]
  {
    guard let entry = root.entry(name) else { return [] }
    switch entry.node.value {
    case .table(let table) where allowSingle:
      return [reader(table, name: "[\(name)]", entry: entry, state: root.state)]
    case .array(let array):
      var out: [TableReader] = []
      out.reserveCapacity(array.elements.count)
      let section = "[[\(name)]]"
      let known = knownKeys[name] ?? []
      for element in array.elements {
        guard case .table(let table) = element.value else {
          root.state.error(
            element.range.start,
            "'\(name)' entries must be tables ([[\(name)]]), not \(element.value.kindDescription)")
          continue
        }
        out.append(
          TableReader(
            table, section: section,
            anchor: table.headerRange?.start ?? element.range.start,
            known: known, state: root.state))
      }
      return out
    default:
      let form = allowSingle ? "a table ([\(name)] or [[\(name)]])" : "an array of tables"
      root.mismatch(
        entry, form, actual: "\(entry.node.value.kindDescription) (write [[\(name)]])")
      return []
    }
  }

  /// Where each alarm table is written. An array beside the readers rather than pairs
  /// with them: a second array of 10,000 readers was a megabyte of fresh pages.
  private static func alarmSources(_ readers: [TableReader], document: TOMLDocument)
    -> [AlarmSource]
  {
    let headers = document.headers
    var next = 0  // where the header after the last one found is
    /// The index in `headers` (in source order) of the header that starts at `offset`:
    /// usually `next`, as the tables come in source order, else by binary search (a
    /// dictionary of every header cost more to build than all the searches).
    func headerIndex(_ offset: Int) -> Int? {
      if next < headers.count, headers[next].range.start.offset == offset {
        next += 1
        return next - 1
      }
      var (low, high) = (0, headers.count)
      while low < high {
        let mid = (low + high) / 2
        if headers[mid].range.start.offset < offset { low = mid + 1 } else { high = mid }
      }
      guard low < headers.count, headers[low].range.start.offset == offset else { return nil }
      next = low + 1
      return low
    }
    return readers.map { reader in
      let table = reader.table
      guard let header = table.headerRange else {
        // An inline table in `alarm = [{...}]`: its extent is the node's own range.
        let start = reader.anchor
        let end = table.entries.last.map { $0.node.range.end.offset } ?? start.offset
        return AlarmSource(
          header: nil, block: start.offset..<end, start: start,
          hasExplicitID: reader.entry("id") != nil)
      }
      let index = headerIndex(header.start.offset)
      let lineStart = index.map { document.headers[$0].lineStart } ?? header.start
      var end = document.byteCount
      if let i = index, i + 1 < document.headers.count {
        end = document.headers[i + 1].lineStart.offset
      }
      return AlarmSource(
        header: header, block: lineStart.offset..<max(end, lineStart.offset), start: lineStart,
        hasExplicitID: reader.entry("id") != nil)
    }
  }

  static let knownKeys: [String: [String]] = [
    "defaults": DefaultsDecoder.keys,
    "settings": ["timezone", "sound_dirs", "state_dir", "socket"],
    "audio": ["device", "mixer", "mixer_device", "fallback_devices", "buzzer", "stream_lead"],
    "hooks": HooksDecoder.keys,
    "button": InputDecoder.buttonKeys,
    "input": InputDecoder.inputKeys,
    "web": WebDecoder.keys,
    "voice": VoiceDecoder.keys,
    "alarm": AlarmDecoder.keys,
  ]

  private static func reader(
    _ table: TOMLTable, name: String, entry: TOMLEntry, state: DecodeState
  ) -> TableReader {
    TableReader(
      table, section: name,
      anchor: table.headerRange?.start ?? entry.keyRange.start,
      known: knownKeys[entry.key] ?? [], state: state)
  }

  private static func decodeSettings(_ r: TableReader, base: String?) -> Settings {
    var s = Settings()
    if let zone = r.string("timezone", maxBytes: TableReader.maxNameBytes) {
      if isZoneName(zone) {
        s.timezone = zone
      } else if let entry = r.table.entry("timezone") {
        r.mismatch(entry, "a time zone name like \"Europe/Berlin\"", actual: quoted(zone))
      }
    }
    s.soundDirs =
      r.stringList(
        "sound_dirs", maxBytes: TableReader.maxPathBytes, expectation: "a list of directories")?.map
    {
      resolve($0, base: base)
    } ?? []
    s.stateDir = r.string("state_dir", maxBytes: TableReader.maxPathBytes).map {
      resolve($0, base: base)
    }
    if let socket = r.string("socket", maxBytes: TableReader.maxPathBytes) {
      let path = resolve(socket, base: base)
      // sun_path holds 108 bytes with its NUL; a longer path could never be bound.
      if path.utf8.count > maxSocketPathBytes, let entry = r.table.entry("socket") {
        r.state.error(
          entry.node.range.start,
          "'socket' is too long for a Unix socket: \(path.utf8.count) bytes"
            + (path == socket ? "" : " once resolved against the config's directory")
            + ", at most \(maxSocketPathBytes)")
      } else {
        s.socket = path
      }
    }
    return s
  }

  /// The longest path a Unix socket can be bound at (`sun_path` less its NUL).
  static let maxSocketPathBytes = 107

  private static func decodeAudio(_ r: TableReader) -> AudioConfig {
    var a = AudioConfig()
    a.device = r.string("device", maxBytes: TableReader.maxNameBytes) ?? a.device
    a.mixer = r.string("mixer", maxBytes: TableReader.maxNameBytes)
    a.mixerDevice = r.string("mixer_device", maxBytes: TableReader.maxNameBytes)
    a.fallbackDevices =
      r.stringList(
        "fallback_devices", maxBytes: TableReader.maxNameBytes,
        expectation: "a list of ALSA device names") ?? []
    a.buzzer = BuzzerDecoder.decode(r)
    if let lead = r.duration("stream_lead", in: AudioConfig.streamLeadRange) { a.streamLead = lead }
    return a
  }

  /// IANA-style names: `UTC`, `Europe/Berlin`, `America/Argentina/Buenos_Aires`,
  /// `Etc/GMT+5`. Whether the zone exists is checked by the caller against the system.
  static func isZoneName(_ name: String) -> Bool {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part != "." && part != ".."
        && part.unicodeScalars.allSatisfy {
          ($0.value >= 65 && $0.value <= 90) || ($0.value >= 97 && $0.value <= 122)
            || ($0.value >= 48 && $0.value <= 57) || "_+-.".unicodeScalars.contains($0)
        }
    }
  }

  /// The directory part of `path` (`/etc/alarmclock`), nil when it has none.
  static func directory(of path: String) -> String? {
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `path` made relative to the config file's directory, unless it is absolute.
  static func resolve(_ path: String, base: String?) -> String {
    guard !path.hasPrefix("/"), let base else { return path }
    return base.hasSuffix("/") ? base + path : base + "/" + path
  }
}
