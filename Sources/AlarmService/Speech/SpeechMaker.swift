import AlarmCore
import AlarmPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Makes one WAV file of speech at a time with espeak-ng in a child process the loop
/// watches (a runner of its own, so speech never takes a hook's place, and a synthesizer
/// that hangs is killed at its deadline). Used by the idle speech and by the ring's
/// announcements, each with a maker of its own and files of its own. Loop thread only.
final class SpeechMaker {
  /// What became of a request.
  enum Outcome {
    /// The WAV file, ready to play.
    case made(String)
    /// Why there is nothing to play (already logged words: "espeak-ng failed (exit 1)").
    case failed(String)
  }

  private let runner: HookRunner
  private let textPath: String
  /// The file each request writes (replaced by the next).
  let wavPath: String
  /// The request in progress: its number and what to call when it is done.
  private var pending: (number: Int, done: (Outcome) -> Void)?
  private var requests = 0

  /// Files are `directory/name.txt` and `directory/name.wav`.
  init(
    loop: EventLoop, log: Logger, directory: String, name: String, environment: Environment
  ) {
    textPath = directory + "/" + name + ".txt"
    wavPath = directory + "/" + name + ".wav"
    runner = HookRunner(
      loop: loop, environment: environment, maxRunning: 1, killGrace: .seconds(1),
      log: { level, text in log.log(level, text) })
    runner.onFinish = { [unowned self] result in self.finished(result) }
  }

  /// Whether a synthesis is running (or its child not yet reaped).
  var isBusy: Bool { pending != nil || runner.runningCount > 0 }

  /// Starts making `text`; `done` is called on the loop when the file is ready or cannot
  /// be made, unless `cancel()` comes first. Nil when it cannot start (then `done` is
  /// never called): the reason is the result's text.
  func make(
    _ text: String, locale: DisplayLocale, rate: Int, timeout: Duration = .seconds(10),
    done: @escaping (Outcome) -> Void
  ) -> String? {
    guard !isBusy else { return "a sentence is still being made" }
    do {
      try AtomicFile.write(Array(text.utf8), to: textPath, mode: 0o600)
    } catch {
      return "cannot write \(textPath): \(error)"
    }
    let argv = SpeechSynthesizer.arguments(
      locale: locale, rate: rate, textFile: textPath, wavFile: wavPath)
    guard runner.run(argv, timeout: timeout, name: "speech") != nil else {
      unlink(textPath)
      return "espeak-ng could not be started (apt install espeak-ng)"
    }
    requests += 1
    pending = (requests, done)
    return nil
  }

  /// Forgets the request in progress (its child runs out its course, its file unused).
  func cancel() { pending = nil }

  /// For shutdown: the child killed if it still runs.
  func stop() {
    pending = nil
    runner.stopAll(grace: .milliseconds(200))
  }

  private func finished(_ result: HookResult) {
    unlink(textPath)
    guard let pending else {
      unlink(wavPath)  // made for a request cancelled meanwhile
      return
    }
    self.pending = nil
    guard result.status.isSuccess else {
      let why = result.timedOut ? "timed out" : "failed (\(result.status))"
      pending.done(.failed("espeak-ng \(why)"))
      return
    }
    guard let st = try? FileSystem.status(wavPath), st.st_size > 44 else {
      pending.done(.failed("espeak-ng made no sound"))
      return
    }
    pending.done(.made(wavPath))
  }
}
