import AlarmCore

#if canImport(Glibc)
  import Glibc
#endif

/// Speech from espeak-ng, run as a child process that writes a WAV file: nothing of the
/// synthesizer is linked in or resident once it has exited (the idle service stays
/// small), and a synthesizer that hangs or crashes is killed or reported, never waited
/// for past `timeout`. docs/audio.md says why a process and not the library.
public struct SpeechSynthesizer: Sendable {
  /// The program: `espeak-ng`, found in PATH (the package recommends Debian's).
  public var program = "espeak-ng"
  /// The search path for `program`.
  public var path: String?

  public init(path: String? = nil) { self.path = path }

  /// espeak-ng's voice for a language: American English, or Mandarin (which reads Latin
  /// letters in a label as English).
  public static func voice(_ locale: DisplayLocale) -> String {
    switch locale {
    case .english: return "en-us"
    case .traditionalChinese: return "cmn"
    }
  }

  /// The command line that reads the text from `textFile` and writes `wavFile`: the one
  /// place it is spelled, for this blocking call and the service's child in its loop.
  public static func arguments(
    program: String = "espeak-ng", locale: DisplayLocale, rate: Int, textFile: String,
    wavFile: String
  ) -> [String] {
    [program, "-v", voice(locale), "-s", String(rate), "-f", textFile, "-w", wavFile]
  }

  /// Synthesizes `text` in `locale` at `rate` words a minute into a 16-bit mono WAV file at
  /// `wavPath` (created or replaced), in at most `timeout`.
  public func synthesize(
    _ text: String, locale: DisplayLocale, rate: Int, to wavPath: String,
    timeout: Duration = .seconds(10)
  ) throws(SpeechError) {
    guard let file = HookProcess.resolve(program, path: path ?? HookProcess.defaultPath) else {
      throw SpeechError("\(program) is not installed (apt install espeak-ng)")
    }
    // The text through a file, not argv: it may start with '-' or be long.
    let textPath = wavPath + ".txt"
    defer { unlink(textPath) }
    do {
      try AtomicFile.write(Array(text.utf8), to: textPath, mode: 0o600)
    } catch {
      throw SpeechError("cannot write the text to speak: \(error)")
    }
    let log: FileDescriptor
    do {
      log = try FileDescriptor.open(wavPath + ".log", O_RDWR | O_CREAT | O_TRUNC, mode: 0o600)
    } catch {
      throw SpeechError("cannot open a log for \(program): \(error)")
    }
    defer {
      log.close()
      unlink(wavPath + ".log")
    }
    let argv = Self.arguments(
      program: program, locale: locale, rate: rate, textFile: textPath, wavFile: wavPath)
    let pid: pid_t
    do {
      pid = try HookProcess.spawn(file: file, argv: argv, environment: [], output: log)
    } catch {
      throw SpeechError("cannot start \(program): \(error)")
    }
    let deadline = Clock.monotonic.now() + timeout
    var status: ExitStatus?
    while status == nil {
      status = HookProcess.reap(pid)
      if status != nil { break }
      if Clock.monotonic.now() >= deadline {
        HookProcess.signalGroup(pid, SIGKILL)
        while HookProcess.reap(pid) == nil { usleep(1000) }
        throw SpeechError("\(program) took longer than \(DurationText.format(timeout)); killed")
      }
      usleep(2000)
    }
    guard status?.isSuccess == true else {
      let said = (try? FileSystem.readText(wavPath + ".log", limit: 4096)) ?? ""
      let first = said.split(separator: "\n").first.map { ": " + $0 } ?? ""
      throw SpeechError("\(program) failed (\(status!))\(first)")
    }
  }
}

/// Why speech could not be made.
public struct SpeechError: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
