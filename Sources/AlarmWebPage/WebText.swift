import AlarmCore

/// The page's own words in English and Traditional Chinese (the seeds' app: 鬧鐘, 加入鬧鐘,
/// 編輯鬧鐘, 重複, 標籤, 提示聲, 稍後提醒, 儲存, 取消, 刪除鬧鐘). Repeat summaries, weekday
/// names, times and durations come from AlarmCore's `AlarmText`, the table `list` uses.
struct WebText {
  let alarm: AlarmText
  let zh: Bool

  init(_ language: WebLanguage) {
    alarm = AlarmText(language.locale)
    zh = language.locale == .traditionalChinese
  }

  func t(_ en: String, _ tw: String) -> String { zh ? tw : en }

  /// Between a row's label and its repeat summary.
  var comma: String { t(", ", "，") }
  var alarms: String { t("Alarms", "鬧鐘") }
  var add: String { t("Add alarm", "加入鬧鐘") }
  var edit: String { t("Edit alarm", "編輯鬧鐘") }
  var save: String { t("Save", "儲存") }
  var cancel: String { t("Cancel", "取消") }
  var delete: String { t("Delete alarm", "刪除鬧鐘") }
  var confirmDelete: String { t("Delete this alarm?", "要刪除這個鬧鐘嗎？") }
  var repeatDays: String { t("Repeat", "重複") }
  var repeatHint: String { t("None ticked: rings once.", "都不選：只響一次。") }
  var label: String { t("Label", "標籤") }
  var time: String { t("Time", "時間") }
  var sound: String { t("Sound", "提示聲") }
  /// The field for a stream's address under the sound list.
  var stationURL: String { t("Or a radio station", "或廣播電台") }
  var stationHint: String {
    t(
      "Its http(s):// address (a stream, .pls, .m3u or .m3u8). When it cannot play, "
        + "More settings' \"If the stream fails, ring\" sound rings instead.",
      "電台的 http(s):// 網址（串流、.pls、.m3u 或 .m3u8）。無法播放時，改響「更多設定」中"
        + "「串流無法播放時的提示聲」。")
  }
  var volume: String { t("Volume", "音量") }
  var snooze: String { t("Snooze", "稍後提醒") }
  var enabled: String { t("On", "開啟") }
  var more: String { t("More settings", "更多設定") }
  var noLimit: String { t("no limit", "不限") }
  var on: String { t("on", "開") }
  /// The choice that leaves a switch to `[defaults]`, which has it `on` or off.
  func defaultSwitch(_ on: Bool) -> String {
    on ? t("Default (on)", "預設（開）") : t("Default (off)", "預設（關）")
  }
  func keepSound(_ name: String?) -> String {
    name.map { t("Default (\($0))", "預設（\($0)）") } ?? t("The same sound", "同一個提示聲")
  }

  /// A "More settings" field's name on the page (`AlarmKey.moreSettings`).
  func field(_ key: AlarmKey) -> String {
    switch key {
    case .snooze: return t("Snooze length", "稍後提醒間隔")
    case .ramp: return t("Fade in over", "漸入時間")
    case .ringFor: return t("Rings for", "響鈴長度")
    case .maxSnoozes: return t("Snoozes at most", "最多稍後提醒次數")
    case .fallbackSound: return t("If the stream fails, ring", "串流無法播放時的提示聲")
    case .soundOrder: return t("A sound folder plays", "提示聲資料夾的順序")
    case .escalateAfter: return t("Louder after", "漸強時間")
    case .escalateVolume: return t("Louder to volume", "漸強至音量")
    case .escalateSound: return t("Then the sound", "漸強後提示聲")
    case .announce: return t("Say the time while ringing", "響鈴時報時")
    case .announceEvery: return t("Say it every", "報時間隔")
    case .date: return t("Date (rings once)", "日期（只響一次）")
    case .skip: return t("Days off", "不響的日子")
    case .skipCalendars: return t("Calendars of days off", "休假日曆")
    case .id: return t("Id", "識別碼")
    case .time: return time
    case .days: return repeatDays
    case .label: return label
    case .sound: return sound
    case .volume: return volume
    case .enabled: return enabled
    }
  }

  /// A sound folder's order; `default`: the choice of `[defaults]`' order.
  func soundOrder(_ order: SoundOrder, default: Bool = false) -> String {
    let name =
      order == .shuffle ? t("shuffled", "隨機") : t("in name order", "依名稱順序")
    return `default` ? defaultSound(name) : name
  }
  var skipHint: String {
    t(
      "One per line: a day, or days from..to (both included).",
      "每行一個：一天，或「開始..結束」的日子（含頭尾）。")
  }
  var calendarsHint: String {
    t(
      "iCalendar files whose all-day events are days off, one per line; none: not even the default ones.",
      "全天活動視為休假的 iCalendar 檔案，每行一個；none：連預設的也不用。")
  }
  var derivedID: String { t("from the label and time", "由標籤和時間產生") }
  var off: String { t("off", "關閉") }
  var durationHint: String {
    t("Empty: the default. Durations like 30s, 9m or 1h30m.", "留空：使用預設值。時間長度如 30s、9m 或 1h30m。")
  }
  var stop: String { t("Stop", "停止") }
  var ringing: String { t("Ringing", "正在響") }
  var snoozedUntil: String { t("Snoozed until", "稍後提醒至") }
  var ringsUntil: String { t("Ringing until", "響鈴至") }
  var next: String { t("Next: ", "下一個：") }
  var noAlarms: String { t("No alarms yet.", "還沒有鬧鐘。") }
  var noNext: String { t("No alarm is set.", "沒有設定鬧鐘。") }
  var skipNext: String { t("Skip next", "略過下一次") }
  var skipped: String { t("Skipped", "已略過") }
  var unskip: String { t("Undo", "復原") }
  var playOnDevice: String { t("Play on the device", "在裝置上試聽") }
  var playHint: String {
    t("Rings this alarm now with its saved sound; Stop silences it.", "立即以已儲存的提示聲響鈴；按「停止」關掉。")
  }
  var logOut: String { t("Log out", "登出") }
  var logIn: String { t("Log in", "登入") }
  var token: String { t("Access token", "存取權杖") }
  var loginFailed: String { t("That token is not right.", "權杖不正確。") }
  var loginHint: String {
    t(
      "The token is in the web-token file beside the config; on the device, alarmclock web --print-url prints a login link.",
      "權杖在設定檔旁的 web-token 檔案裡；在裝置上執行 alarmclock web --print-url 可印出登入連結。")
  }
  var configErrors: String {
    t("The config file has errors; the last good config is in force:", "設定檔有錯誤，目前沿用上一份正確的設定：")
  }
  var serviceDown: String { t("The alarm service did not answer:", "鬧鐘服務沒有回應：") }
  var back: String { t("Back to the alarms", "回到鬧鐘列表") }

  /// "Default (name)" / "預設（name）" for the choice of no `sound`.
  func defaultSound(_ name: String?) -> String {
    guard let name else { return t("Default", "預設") }
    return zh ? "預設（\(name)）" : "Default (\(name))"
  }

  /// The title of an error page.
  func errorTitle(_ status: Int) -> String {
    switch status {
    case 400: return t("That was not accepted", "無法接受這個要求")
    case 401: return t("Please log in", "請先登入")
    case 403: return t("The form has expired; reload the page", "表單已過期，請重新載入頁面")
    case 404: return t("Not found", "找不到")
    case 409:
      return t(
        "The alarms were changed elsewhere; reload them and try again", "鬧鐘已在別處被修改，請重新載入後再試一次")
    case 413: return t("That was too large", "內容太大")
    case 503: return t("The alarm service is not running", "鬧鐘服務沒有在執行")
    default: return t("Something went wrong", "發生錯誤")
    }
  }
}
