import AlarmCore
import AlarmPlatform

/// Today's local date in the system zone (for the "date in the past" warning).
enum ZoneToday {
  static func date(_ now: Instant, env: [String: String]) -> LocalDate {
    ZoneLoader.system(environment: env).local(at: now).date
  }
}
