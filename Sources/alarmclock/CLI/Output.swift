import AlarmPlatform

/// Writes a line to standard error (unbuffered, straight to fd 2).
func printError(_ message: String) {
  // Nowhere to report a failing stderr.
  try? FileDescriptor.writeAll(Array(terminated(message).utf8), toRaw: 2)
}

/// Writes a line to standard output (unbuffered: scripts read it through pipes).
func printOut(_ message: String) {
  try? FileDescriptor.writeAll(Array(terminated(message).utf8), toRaw: 1)
}

private func terminated(_ message: String) -> String {
  message.hasSuffix("\n") ? message : message + "\n"
}
