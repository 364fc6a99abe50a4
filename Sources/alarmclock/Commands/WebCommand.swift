import AlarmClient
import AlarmCore
import AlarmFiles
import AlarmPlatform
import AlarmService
import AlarmWeb

/// `alarmclock web`: the page and the JSON API over HTTP, in a process of its own.
struct WebCommand: Command {
  static let name = "web"
  static let summary = "serve the web page and the HTTP API"
  static let help = """
    usage: alarmclock web [--listen HOST:PORT] [--token-file PATH] [--print-url]
                          [--idle-exit DURATION] [--config PATH] [--socket PATH]
                          [--state-dir DIR]

    Serves a page for a phone (the alarm list with switches, add, edit, delete,
    snooze and stop) and the JSON API of docs/http.md. It edits the config file
    like 'alarmclock edit' does and talks to the running service over its control
    socket; the service itself never touches the network.

    --listen       where to listen (default: the config's [web] listen, else
                   127.0.0.1:8080); a socket passed by systemd (LISTEN_FDS) wins
    --token-file   the secret that the API (Authorization: Bearer TOKEN) and the
                   page's login take (default: [web] token_file, else web-token
                   beside the config); created with a random token (mode 0600)
                   and the login URL printed when it does not exist
    --print-url    print the login URL and exit
    --idle-exit    exit after this long without a request (default: 10m with a
                   socket from systemd, else never; 0 never)
    --config, --socket and --state-dir name the config, the service's control
    socket and its state directory as for 'edit', 'status' and 'list'.
    See docs/http.md for the API, the page's routes, access and limits.
    """
  var listen: String?
  var tokenFile: String?
  var printURL: Bool
  var idleExit: Duration?
  var configPath: String?
  var socket: String?
  var stateDir: String?

  init(arguments: inout Arguments) throws(UsageError) {
    listen = try arguments.option("--listen")
    if let listen, case .failure(let e) = ListenAddress.parse(listen) {
      throw UsageError("--listen wants \(e.expectation)")
    }
    tokenFile = try arguments.option("--token-file")
    printURL = arguments.flag("--print-url")
    if let text = try arguments.option("--idle-exit") {
      guard let d = DurationText.parse(text), d >= .zero else {
        throw UsageError("--idle-exit wants a duration like 10m or 0 (never), not '\(text)'")
      }
      idleExit = d
    }
    configPath = try arguments.option("--config")
    socket = try arguments.option("--socket")
    stateDir = try arguments.option("--state-dir")
  }

  func run() -> Int32 {
    let env = processEnvironment()
    let config = ConfigFile.path(configPath, environment: env)
    let settings = WebSettings.read(config, environment: env)
    let address: ListenAddress
    switch ListenAddress.parse(listen ?? settings.listen ?? ListenAddress.fallback.description) {
    case .success(let a): address = a
    case .failure(let e):
      printError("alarmclock web: \(config): [web] listen wants \(e.expectation)")
      return ExitCode.failure
    }
    let tokenPath = tokenFile ?? settings.tokenFile ?? WebSettings.defaultTokenFile(config)
    let token: String
    do throws(SystemError) {
      let (t, created) = try TokenFile.load(tokenPath)
      token = t
      if created || printURL {
        if created { printOut("created \(tokenPath) with a new random token") }
        printOut("log in at \(address.url)/login?token=\(token)")
      }
    } catch {
      printError("alarmclock web: token file \(tokenPath): \(error)")
      return ExitCode.failure
    }
    if printURL { return ExitCode.ok }
    let log = Logger(fd: 2, environment: Environment(env), minimumLevel: .info)
    let systemdFD = WebListener.fromSystemd(environment: env)
    let listenFD: Int32
    var shown = address
    if let systemdFD {
      listenFD = systemdFD
    } else {
      do throws(SystemError) {
        listenFD = try WebListener.open(address)
      } catch {
        printError("alarmclock web: cannot listen on \(address): \(error)")
        return ExitCode.failure
      }
      shown.port = WebListener.port(of: listenFD) ?? address.port
    }
    let idle = idleExit ?? (systemdFD != nil ? .seconds(600) : nil)
    let setup = WebSetup(
      configPath: config,
      socketPath: ServiceRequests.socketPath(socket, configPath: config, environment: env),
      stateDir: stateDir, environment: env)
    let app = WebApp(setup: setup, access: WebAccess(token: token), tokenFile: tokenPath)
    app.onTokenChange = { log.notice($0) }
    let process: WebProcess
    do throws(SystemError) {
      process = try WebProcess(
        app: app, listenFD: listenFD, idleExit: idle == .zero ? nil : idle, log: log)
    } catch {
      printError("alarmclock web: cannot start: \(error)")
      return ExitCode.failure
    }
    log.notice(
      systemdFD != nil
        ? "serving on the socket from systemd" : "serving on \(shown.url)/")
    return process.run()
  }
}

/// The `[web]` table's values; an unreadable or invalid config gives the defaults (the
/// page then shows its errors, and `check` explains them).
struct WebSettings {
  var listen: String?
  var tokenFile: String?

  static func read(_ path: String, environment: [String: String]) -> WebSettings {
    guard case .success(let loaded) = ConfigFile.load(path, environment: environment, now: nil),
      let web = loaded.config?.web
    else { return WebSettings() }
    return WebSettings(listen: web.listen, tokenFile: web.tokenFile)
  }

  /// `web-token` beside the config file.
  static func defaultTokenFile(_ config: String) -> String {
    guard let slash = config.lastIndex(of: "/") else { return "web-token" }
    return String(config[...slash]) + "web-token"
  }
}
