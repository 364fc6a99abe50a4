import AlarmCore
import Foundation
import TOML

/// Decodes `text` as `/etc/alarmclock/alarms.toml`.
func decode(_ text: String, now: LocalDate? = nil) -> ConfigResult {
  ConfigDecoder.decode(text, path: "/etc/alarmclock/alarms.toml", now: now)
}

/// Every diagnostic as `line:col: message`.
func messages(_ text: String, now: LocalDate? = nil) -> [String] {
  decode(text, now: now).diagnostics.map(\.description)
}

/// The config of a text that must decode without errors or warnings.
func validConfig(_ text: String) -> Config? {
  let result = decode(text)
  guard result.diagnostics.isEmpty else {
    print(result.formatted.joined(separator: "\n"))
    return nil
  }
  return result.config
}

/// A file's text (tests only; the core itself never reads files).
func readText(_ path: String) throws -> String {
  try String(contentsOfFile: path, encoding: .utf8)
}
