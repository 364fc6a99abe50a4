import AlarmCore
import AlarmFiles
import AlarmPlatform

/// Where the audio code writes its log lines. Called from the playback thread.
public typealias AudioLog = @Sendable (LogLevel, String) -> Void
