import TOML

/// Each key's value from text, as the command line, the API and the page take it: one
/// parser per key, so the three accept and refuse the same things with the same words.
extension ReminderKey {
  /// The value of `text` for this key, or why not (worded to follow the key's name:
  /// "'due' must be ...", "--due must be ..."). `done` takes `true` or `false`.
  public func parse(_ text: String) -> Result<ReminderValue, ReminderValueError> {
    switch self {
    case .title:
      if let problem = Reminder.titleProblem(text) { return .failure(ReminderValueError(problem)) }
      return .success(.string(text))
    case .due:
      return ReminderDue.parse(text).map(ReminderValue.due)
    case .notes:
      if text.utf8.count > Reminder.maxNotesBytes {
        return .failure(
          ReminderValueError(
            "is too long: \(text.utf8.count) bytes in UTF-8, at most \(Reminder.maxNotesBytes)"))
      }
      if let problem = ReminderDecoder.notesProblem(text) {
        return .failure(ReminderValueError(problem))
      }
      return .success(.string(text))
    case .done:
      switch text {
      case "true": return .success(.boolean(true))
      case "false": return .success(.boolean(false))
      default: return .failure(ReminderValueError("must be true or false, not \(quoted(text))"))
      }
    case .id:
      if text == ReminderDecoder.reservedID {
        return .failure(
          ReminderValueError("\"new\" is reserved (the page's add form is /reminders/new)"))
      }
      guard AlarmID.isValid(text) else {
        return .failure(
          ReminderValueError(
            "must be lower-case letters, digits, '-' and '_' (starting with a letter or digit, "
              + "at most \(AlarmID.maxLength)), not \(quoted(TOMLFormat.excerpt(text)))"))
      }
      return .success(.string(text))
    case .photo:
      guard ReminderDecoder.isPhotoName(text) else {
        return .failure(
          ReminderValueError(
            "must be a file name (letters, digits, '.', '-', '_'; not starting with '.'), not "
              + quoted(TOMLFormat.excerpt(text))))
      }
      return .success(.string(text))
    }
  }
}
