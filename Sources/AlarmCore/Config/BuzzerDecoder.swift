import TOML

/// `[audio] buzzer = { chip = "gpiochip0", line = "GPIO18" }`.
enum BuzzerDecoder {
  static let keys = ["chip", "line"]

  static func decode(_ audio: TableReader) -> BuzzerConfig? {
    guard let entry = audio.entry("buzzer") else { return nil }
    guard case .table(let table) = entry.node.value else {
      audio.mismatch(entry, "a table like { chip = \"gpiochip0\", line = \"GPIO18\" }")
      return nil
    }
    let r = TableReader(
      table, section: "[audio] buzzer", anchor: table.headerRange?.start ?? entry.keyRange.start,
      known: keys, state: audio.state)
    let chip = InputDecoder.gpioChip(r)
    let line = InputDecoder.gpioLine(r)
    guard let chip, let line else { return nil }
    return BuzzerConfig(chip: chip, line: line)
  }
}
