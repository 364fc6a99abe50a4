import AlarmCore

/// The HTML pages of `alarmclock web`, rendered as complete documents from plain inputs.
///
/// Each page is self-contained (inline CSS, a little inline JavaScript, no external
/// requests), works without JavaScript (every action is a form), and escapes every value
/// it shows. Form fields and routes follow docs/http.md.
public enum WebPage {
  /// The alarm list: ringing panel, next alarm, config errors, one row per alarm (sorted by
  /// time) with its on/off switch, skip-next and a link to its edit form.
  public static func list(_ page: ListPage, _ context: PageContext) -> String {
    ""
  }

  /// The add or edit form, with delete and "ring now on the device" when editing.
  public static func edit(_ page: EditPage, _ context: PageContext) -> String {
    ""
  }

  /// The login form.
  public static func login(_ page: LoginPage, _ context: PageContext) -> String {
    ""
  }

  /// An error page with a title for `status`, the message and a link back.
  public static func error(_ page: ErrorPage, _ context: PageContext) -> String {
    ""
  }
}
