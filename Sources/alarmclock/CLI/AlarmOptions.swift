import AlarmCore

/// The alarm options shared by `add` and `edit`, read into the changes to make.
enum AlarmOptions {
  /// The options text for the commands' --help (from the keys' declarations).
  static let help = AlarmKey.optionsHelp

  /// Reads every alarm option into `changes`: each key's option, parser and negation are
  /// its declaration's (`AlarmKey.option`, `parse`, `negation`), as the help's.
  static func read(_ arguments: inout Arguments, into changes: inout AlarmChanges)
    throws(UsageError)
  {
    for key in AlarmKey.allCases {
      let name = key.option.flag
      switch key.kind {
      case .onOff where key.option.value == nil:
        // `--disabled`: the flag alone says off.
        if arguments.flag(name) { changes.values[key] = .boolean(false) }
      case .skipList:
        for text in try arguments.options(name) {
          changes.addSkips.append(try value(name, AlarmValueText.skipEntry(text)))
        }
      case .pathList:
        let paths = try arguments.options(name)
        if paths.isEmpty { break }
        guard !paths.contains(where: \.isEmpty) else {
          throw UsageError("\(name) needs the path of an iCalendar file")
        }
        changes.values[key] = try value(name, key.parse(paths.joined(separator: "\n")))
      default:
        if let text = try arguments.option(name) {
          // `--label ""` goes back to the default label.
          if key == .label && text.isEmpty {
            changes.unset.insert(key)
          } else {
            changes.values[key] = try value(name, key.parse(text))
          }
        }
      }
      if let (off, _) = key.negation, arguments.flag(off) {
        guard changes.values[key] == nil else {
          throw UsageError("\(name) and \(off) contradict each other")
        }
        changes.values[key] = .boolean(false)
      }
    }
  }

  private static func value<T>(_ name: String, _ result: Result<T, AlarmValueError>)
    throws(UsageError) -> T
  {
    switch result {
    case .success(let v): return v
    case .failure(let e): throw UsageError("\(name) wants \(e.expectation)")
    }
  }
}
