import AlarmCore

/// The reminder screen's words (the seed's 提醒清單: 提醒, 新增提醒, 標題, 截止日期, 備註).
extension WebText {
  var reminders: String { t("Reminders", "提醒") }
  var addReminder: String { t("Add reminder", "新增提醒") }
  var editReminder: String { t("Edit reminder", "編輯提醒") }
  var reminderTitle: String { t("Title", "標題") }
  var dueDate: String { t("Due date", "截止日期") }
  var dueTime: String { t("Time (optional)", "時間（可不填）") }
  var dueHint: String {
    t("Empty date: no due date.", "日期留空：沒有截止日期。")
  }
  var notes: String { t("Notes", "備註") }
  var deleteReminder: String { t("Delete reminder", "刪除提醒") }
  var confirmDeleteReminder: String { t("Delete this reminder?", "要刪除這個提醒嗎？") }
  var photo: String { t("Photo", "照片") }
  var addPhoto: String { t("Add the photo", "加入照片") }
  var replacePhoto: String { t("Replace the photo", "更換照片") }
  var removePhoto: String { t("Remove the photo", "移除照片") }
  var noReminders: String { t("No reminders yet.", "還沒有提醒事項。") }
  var markDone: String { t("Done", "完成") }
  var moveUp: String { t("Move up", "上移") }
  var moveDown: String { t("Move down", "下移") }
  var backToReminders: String { t("Back to the reminders", "回到提醒清單") }
  var remindersErrors: String {
    t("The reminder list has errors; fix reminders.toml first:", "提醒清單有錯誤，請先修正 reminders.toml：")
  }
}
