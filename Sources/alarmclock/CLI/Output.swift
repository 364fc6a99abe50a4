#if canImport(Glibc)
  import Glibc
#endif

/// Writes a line to standard error (unbuffered, straight to fd 2).
func printError(_ message: String) {
  writeAll(2, message.hasSuffix("\n") ? message : message + "\n")
}

/// Writes a line to standard output (unbuffered: scripts read it through pipes).
func printOut(_ message: String) {
  writeAll(1, message.hasSuffix("\n") ? message : message + "\n")
}

private func writeAll(_ fd: Int32, _ text: String) {
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { return }
    bytes = bytes.dropFirst(n)
  }
}
