/// Which service a client command talks to: `--socket`, or the one the config names.
struct ServiceTarget {
  var socket: String?
  var configPath: String?

  init(_ arguments: inout Arguments) throws(UsageError) {
    socket = try arguments.option("--socket")
    configPath = try arguments.option("--config")
  }

  var socketPath: String { ServiceClient.socketPath(socket, configOption: configPath) }
}
